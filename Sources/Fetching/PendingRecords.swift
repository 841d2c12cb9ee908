import GRDB

/// The fetch records a `RawIndex` has been given and not yet committed, with where the bodies
/// they bring lie: a batch is committed in one transaction, where one per document cost a third
/// of storing it (the write lock taken and the WAL pages written each time). Lookups see a
/// record as soon as it is added (`newest`, `body`).
struct PendingRecords {
    /// Where a body lies in the packs.
    struct Body {
        var pack: String
        var offset: Int64
        var length: Int
    }

    private var records: [(url: String, line: String)] = []
    private var bodies: [String: Body] = [:]
    private var newestLine: [String: String] = [:]

    var count: Int { records.count }

    mutating func add(url: String, line: String) {
        records.append((url, line))
        newestLine[url] = line
    }

    mutating func add(body: Body, sha256: String) {
        bodies[sha256] = body
    }

    mutating func removeBody(_ sha256: String) {
        bodies[sha256] = nil
    }

    /// The newest pending record of `url`, as its JSON line.
    func newest(_ url: String) -> String? {
        newestLine[url]
    }

    /// Every pending record of `url`, oldest first, as JSON lines.
    func lines(of url: String) -> [String] {
        records.filter { $0.url == url }.map(\.line)
    }

    func body(_ sha256: String) -> Body? {
        bodies[sha256]
    }

    /// Inserts the batch into the index, inside the caller's transaction; records in the order
    /// they were added, so that their ids keep the order of the fetches.
    func insert(into db: Database) throws {
        let place = try db.cachedStatement(
            sql: "INSERT OR IGNORE INTO packed (sha256, pack, offset, length) VALUES (?, ?, ?, ?)")
        for (sha256, body) in bodies {
            try place.execute(arguments: [sha256, body.pack, body.offset, body.length])
        }
        let record = try db.cachedStatement(sql: "INSERT INTO record (url, line) VALUES (?, ?)")
        for (url, line) in records {
            try record.execute(arguments: [url, line])
        }
    }

    mutating func removeAll() {
        records.removeAll(keepingCapacity: true)
        bodies.removeAll(keepingCapacity: true)
        newestLine.removeAll(keepingCapacity: true)
    }
}
