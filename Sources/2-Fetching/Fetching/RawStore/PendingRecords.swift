import Basics
import Foundation
import GRDB

/// The fetch records a `RawIndex` has been given and not yet committed, with the bodies they
/// bring: a batch is committed in one transaction, where one per document cost a third of
/// storing it (the write lock taken and the WAL pages written each time), and which of its
/// bodies the packs hold already is asked once for the batch, not once per document. Lookups
/// see a record and its body as soon as it is added (`newest`, `body`).
struct PendingRecords {
    /// Where a body lies in the packs.
    struct Placed {
        var pack: String
        var offset: Int64
        var length: Int
    }

    /// A body of the batch: appended to a pack already (a streamed document), or held until the
    /// batch is committed, when it is appended unless the packs hold it.
    enum Body {
        case placed(Placed)
        case held(Data)
    }

    private var records: [(url: String, line: String)] = []
    private var bodies: [String: Body] = [:]
    private var newestLine: [String: String] = [:]
    /// Every URL a record was added for since the index was opened, committed since or not,
    /// which a commit does not clear: what was read of the index before one was added
    /// (`StoredEntityTags`) may no longer be its newest record.
    private var addedURLs: Set<String> = []
    /// The bytes of the held bodies.
    private(set) var heldBytes = 0

    var count: Int { records.count }

    mutating func add(url: String, line: String) {
        records.append((url, line))
        newestLine[url] = line
        addedURLs.insert(url)
    }

    /// Whether a record of `url` was added since the index was opened.
    func added(_ url: String) -> Bool {
        addedURLs.contains(url)
    }

    mutating func add(_ body: Body, sha256: String) {
        guard bodies[sha256] == nil else { return }
        bodies[sha256] = body
        if case .held(let bytes) = body { heldBytes += bytes.count }
    }

    mutating func removeBody(_ sha256: String) {
        if case .held(let bytes) = bodies.removeValue(forKey: sha256) { heldBytes -= bytes.count }
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

    /// Inserts the batch into the index, inside the caller's transaction: the held bodies the
    /// packs do not hold yet appended with `append` (the others dropped), and the records in the
    /// order they were added, so that their ids keep the order of the fetches.
    func insert(into db: Database, appending append: (Data) throws -> (pack: String, offset: Int64)) throws {
        let held = bodies.compactMap { sha256, body in if case .held = body { sha256 } else { nil } }
        let packed = held.isEmpty ? [] : try String.fetchSet(
            db.cachedStatement(sql: "SELECT sha256 FROM packed WHERE sha256 IN (SELECT value FROM json_each(?))"),
            arguments: ["[" + held.map(jsonStringLiteral).joined(separator: ",") + "]"])
        let place = try db.cachedStatement(
            sql: "INSERT OR IGNORE INTO packed (sha256, pack, offset, length) VALUES (?, ?, ?, ?)")
        for (sha256, body) in bodies where !packed.contains(sha256) {
            let placed: Placed
            switch body {
            case .placed(let location): placed = location
            case .held(let bytes):
                let location = try append(bytes)
                placed = Placed(pack: location.pack, offset: location.offset, length: bytes.count)
            }
            try place.execute(arguments: [sha256, placed.pack, placed.offset, placed.length])
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
        heldBytes = 0
    }
}
