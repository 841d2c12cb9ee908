import Basics
import Foundation
import GRDB

/// The snapshot as the open feeds read it (`Feeds`: OpenMensa XML, iCalendar, JSON): each
/// question is a function here answering plain values, so that the feeds see neither SQL nor
/// GRDB, and a renamed column fails in this module.
///
/// A handle lives only inside `read(_:_:)`, on the connection that call opened; like that
/// connection it is not `Sendable`.
public struct FeedQueries {
    let db: Database

    /// Reads the snapshot at `url` through typed queries; a damaged file fails as
    /// `SnapshotReader.read` says, naming the file.
    public static func read<T>(_ url: URL, _ body: (FeedQueries) throws -> T) throws -> T {
        try SnapshotReader.read(url) { db in
            let version = try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
            guard version >= oldestSchema else {
                throw Failure(.snapshot, "has schema \(version), older than the feeds read (\(oldestSchema), campuses): "
                              + "publish it again with this version (`commissary run` with --force)", at: url.path)
            }
            return try body(FeedQueries(db: db))
        }
    }

    /// Schema 17 gave restaurants and hours their campus, which the feeds' names and hours need.
    static let oldestSchema = 17

    /// The pipeline and run the snapshot was built by, and when.
    public func facts() throws -> FeedSnapshotFacts {
        let meta = try SnapshotReader.meta(db)
        return FeedSnapshotFacts(pipeline: meta["pipeline"] ?? "", runID: meta["run_id"] ?? "",
                                 builtAt: meta["built_at"] ?? "")
    }

    /// Every restaurant, with its place where the pipeline's places file (or its source) names one;
    /// by name, then campus.
    public func restaurants() throws -> [FeedRestaurant] {
        let zone = try db.columns(in: "place").contains { $0.name == "time_zone" } ? "p.time_zone" : "NULL"
        return try Row.fetchAll(db, sql: """
            SELECT r.id, r.name, r.campus, p.name AS place, p.address, p.latitude, p.longitude, \(zone) AS time_zone
            FROM restaurant r LEFT JOIN place p ON p.name = r.place_name
            ORDER BY r.name, coalesce(r.campus, '')
            """).map { row in
                let place: FeedPlace? = try row.decode(String?.self, forColumn: "place").map { name in
                    try FeedPlace(name: name, address: row.decode(forColumn: "address"),
                                  latitude: row.decode(forColumn: "latitude"), longitude: row.decode(forColumn: "longitude"),
                                  timeZone: row.decode(forColumn: "time_zone"))
                }
                return try FeedRestaurant(id: row.decode(forColumn: "id"), name: row.decode(forColumn: "name"),
                                          campus: row.decode(forColumn: "campus"), place: place)
            }
    }
}

/// What the feeds say about the snapshot itself.
public struct FeedSnapshotFacts: Hashable, Sendable {
    public var pipeline: String
    public var runID: String
    /// ISO 8601, UTC: when the snapshot was built (the feeds' DTSTAMP).
    public var builtAt: String
}

/// A restaurant as the feeds name it.
public struct FeedRestaurant: Hashable, Sendable {
    public var id: Int64
    public var name: String
    public var campus: String?
    public var place: FeedPlace?
}

/// Where a restaurant is, as far as the snapshot knows.
public struct FeedPlace: Hashable, Sendable {
    public var name: String
    public var address: String?
    public var latitude: Double?
    public var longitude: Double?
    /// An IANA zone (`America/Los_Angeles`), where the snapshot's `place` has a `time_zone`
    /// column (schema 21) and a value in it; nil otherwise.
    public var timeZone: String?
}
