import FoodModel
import Foundation
import SourceAdapters

/// A cached partition whose menus name foods other partitions read when it was parsed: what
/// reading it again for them needs, without its values (those went to the snapshot).
struct Borrower {
    var work: PartitionWork
    var foods: [FoodID]
    var documents: [SourceDocument]
    var summary: PartitionSummary?

    /// A finished partition that borrowed foods; nil when it borrowed none.
    init?(_ outcome: PartitionOutcome) {
        guard !outcome.borrowed.isEmpty else { return nil }
        self.init(work: outcome.work, foods: outcome.borrowed, documents: outcome.documents, summary: outcome.summary)
    }

    init(work: PartitionWork, foods: [FoodID], documents: [SourceDocument], summary: PartitionSummary?) {
        self.work = work
        self.foods = foods
        self.documents = documents
        self.summary = summary
    }
}
