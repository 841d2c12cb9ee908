import Foundation
import GRDB

/// The snapshot as the report page reads it: each question the page asks is a function here that
/// answers plain values, so that a renamed column fails to compile or fails a test in this
/// module, and the page sees neither SQL nor GRDB.
///
/// A handle lives only inside `read(_:_:)`, on the connection that call opened; like that
/// connection it is not `Sendable`.
public struct ReportQueries {
    let db: Database

    /// Reads the snapshot at `url` through typed queries; a damaged file, or a value its column
    /// cannot hold, fails as `SnapshotReader.read` says, naming the file (and the column).
    public static func read<T>(_ url: URL, _ body: (ReportQueries) throws -> T) throws -> T {
        try SnapshotReader.read(url) { db in try body(ReportQueries(db: db)) }
    }

    /// The facts of `_meta` (pipeline, built_at, …), empty for a snapshot without the table.
    public func meta() throws -> [String: String] {
        guard try db.tableExists("_meta") else { return [:] }
        return Dictionary(try Row.fetchAll(db, sql: "SELECT key, value FROM _meta").map {
            try ($0.decode(String.self, forColumn: "key"), $0.decode(String?.self, forColumn: "value") ?? "")
        }, uniquingKeysWith: { first, _ in first })
    }

    /// The partitions the snapshot carries from their last good version.
    public func stalePartitions() throws -> [StalePartition] {
        try SnapshotReader.stalePartitions(in: db)
    }

    /// How a restaurant (`r`) is named on the page: with its campus ("Commons (St. Olaf)") when the
    /// snapshot holds several campuses, so that the page reads campus by campus and two
    /// campuses' restaurants of one name stay two; its name alone otherwise.
    func restaurantName() throws -> String {
        guard try db.columns(in: "restaurant").contains(where: { $0.name == "campus" }),
              try Int.fetchOne(db, sql: "SELECT count(DISTINCT campus) FROM restaurant") ?? 0 > 1
        else { return "r.name" }
        return "r.name || coalesce(' (' || r.campus || ')', '')"
    }

    /// Which foods carry a label, as the run's `labelled_share` check counts them: any nutrient
    /// that states something (an amount, a bound or a printed %DV), in the columns the
    /// snapshot's schema has. Each food once: a row per nutrient was a dozen times the text to
    /// read.
    func labelledFoods() throws -> String {
        let columns = Set(try db.columns(in: "food_nutrient").map(\.name))
        let stated = ["amount", "printed_dv_percent", "amount_below", "amount_at_least"].filter(columns.contains)
        let condition = stated.isEmpty ? "0" : stated.map { "\($0) IS NOT NULL" }.joined(separator: " OR ")
        return "SELECT DISTINCT food_id FROM food_nutrient WHERE " + condition
    }
}
