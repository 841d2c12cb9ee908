import FoodModel
import Foundation
import SourceAdapters

/// A cached partition whose menus name foods other partitions read when it was parsed: what
/// reading it again for them needs, without its values (those went to the snapshot).
struct Borrower {
    var work: PartitionWork
    var foods: Set<FoodID>
    var documents: [SourceDocument]
    var summary: PartitionSummary?
}
