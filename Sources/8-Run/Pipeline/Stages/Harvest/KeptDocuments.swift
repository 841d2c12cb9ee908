import FoodModel
import Foundation
import Snapshot
import SourceAdapters

/// Every document of the run's partitions' last good versions, by source and URL: a stale
/// replay reads from here the pages its day shared with others (a dish another day read first).
struct KeptDocuments: Sendable {
    private let bySource: [String: [SourceDocument]]

    init(_ work: [PartitionWork]) {
        var bySource: [String: [SourceDocument]] = [:]
        for item in work {
            bySource[item.harvester.source.name, default: []] += item.previous?.lastGood?.documents ?? []
        }
        self.bySource = bySource
    }

    func documents(of source: String) -> [SourceDocument] { bySource[source] ?? [] }
}
