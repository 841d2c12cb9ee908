import FoodModel
import GRDB

/// The partitions a run published from an earlier fetch (`_stale`), with why, as far as the
/// snapshot's schema records it.
struct StalePartition {
    var source: String
    var partition: String
    var keptFetchedAt: String?
    var reason: String?

    /// The service day the partition is, when its key is a date (`hours` is not).
    var date: ServiceDate? { ServiceDate(partition) }

    static func read(_ db: Database) throws -> [StalePartition] {
        guard try db.tableExists("_stale") else { return [] }
        let columns = Set(try db.columns(in: "_stale").map(\.name))
        func column(_ name: String) -> String { columns.contains(name) ? name : "NULL" }
        return try Row.fetchAll(db, sql: """
            SELECT \(column("source")) AS source, partition, \(column("kept_fetched_at")) AS kept,
                   \(column("reason")) AS reason
            FROM _stale ORDER BY partition, source
            """).map {
            StalePartition(source: ($0["source"] as String?) ?? "", partition: $0["partition"],
                           keptFetchedAt: $0["kept"], reason: $0["reason"])
        }
    }

    /// One line for people: the day, what was published instead, and why.
    var line: String {
        var text = partition + (source.isEmpty ? "" : " (\(source))")
        text += ": published as fetched " + (keptFetchedAt.map { "at \($0)" } ?? "by an earlier run")
        if let reason { text += "; why the newest fetch was not used: \(reason)" }
        return text
    }
}
