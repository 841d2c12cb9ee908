import Basics
import Foundation
import GRDB

/// Every response body ever fetched, content-addressed, with a history of fetches per URL, so
/// that any run can be replayed offline and any row traced back to the bytes it came from.
///
/// Layout under `root`:
/// - `index.sqlite` (`RawIndex`): one record per fetch, by URL, oldest first, and where the body
///   of each sha256 lies;
/// - `packs/<name>.pack` (`PackWriter`): the bodies, appended, each stored once.
///
/// URLs are only ever hashed or stored as values, so no URL can name a path outside the store.
///
/// The store is a cache, not a journal: nothing is fsynced per document (see `RawIndex` and
/// `PackWriter` for what a crash leaves), because every body is checked against its sha256 when
/// read. A damaged body is dropped from the index on that read, so the document is fetched and
/// written again rather than missed on every later run.
public struct RawStore: Sendable {
    public let root: URL
    /// `index.sqlite`'s path, made once: the index is looked up on every use.
    private let indexPath: String

    public init(root: URL) {
        self.root = root.standardizedFileURL
        indexPath = RawIndex.file(in: self.root).path
    }

    /// Keeps the body (unless one with that hash is there) and adds the fetch's record.
    /// The body is hashed again unless this module computed the document's digest from it.
    @discardableResult
    public func store(_ document: FetchedDocument) throws -> FetchRecord {
        let record = FetchRecord(document)
        guard Self.isDigest(document.sha256),
              document.digestOrigin.computedFromBody || sha256Hex(document.body) == document.sha256
        else {
            throw Failure(.store, "refusing to store a body whose sha256 does not match its bytes", at: document.url)
        }
        do {
            let index = try index(url: document.url)
            try index.add(record, body: document.body)
        } catch let failure as Failure where failure.code == .fileSystem {
            throw Failure(.store, "raw store: \(failure.message)", at: document.url, cause: failure)
        } catch let error as DatabaseError {
            throw Failure(.store, "raw store: \(root.path)/index.sqlite: \(indexFailure(error))", at: document.url, cause: error)
        }
        return record
    }

    /// Checks the index before a run relies on it; a damaged one is moved aside to
    /// `index.sqlite.damaged-<label>` and a new one started (`RawIndex.openRecovering`). Returns
    /// what was moved aside, nil when the index is sound.
    public func openRecovering(label: String) throws -> RawIndexDamage? {
        try recovering { try RawIndex.openRecovering(root: root, label: label) }
    }

    /// Whether SQLite has called the index damaged since this process opened it: every use of
    /// the store has failed since, so the run must stop (`setAsideDamagedIndex`).
    public var damageFound: Bool {
        RawIndex.damageFound(file: indexPath) != nil
    }

    /// Moves aside an index found damaged while the run used it, once nothing uses it any more,
    /// so that the next run starts a new one. Returns the finding, with where the index went.
    public func setAsideDamagedIndex(label: String) throws -> RawIndexDamage? {
        try recovering { try RawIndex.setAside(root: root, label: label) }
    }

    /// A recovery's failure as the machine's: the index cannot be opened, locked or moved.
    private func recovering(_ recover: () throws -> RawIndexDamage?) throws -> RawIndexDamage? {
        do {
            return try recover()
        } catch let damaged as Failure where damaged.code == .damagedRawIndex {
            throw damaged
        } catch let failure as Failure where failure.code == .fileSystem {
            throw Failure.fileSystem("the raw store's index: \(failure.message)", path: RawIndex.file(in: root).path,
                                     cause: failure)
        } catch {
            throw Failure.fileSystem("cannot open the raw store's index: \(Self.plain(error))",
                                     path: RawIndex.file(in: root).path, cause: error)
        }
    }

    /// SQLite's words for a failure of the index; damage is noted on the way, so that every
    /// later use fails at once and the run stops for it once (`damageFound`).
    func indexFailure(_ error: any Error) -> String {
        let words = Self.plain(error)
        if RawIndex.isDamage(error) { RawIndex.noteDamage(root: root, detail: words) }
        return words
    }

    /// Commits the records stored so far (`RawIndex+Batch.swift`): before a run's ledger names
    /// the documents they describe, and when it is done fetching. An index SQLite finds damaged
    /// takes the batch with it and throws nothing here: `damageFound` says so, and the run stops
    /// for it once (`setAsideDamagedIndex`), as it does when a document's store finds it.
    ///
    /// A run commits before each partition it records, a partition taken from the parse cache
    /// included, which stored nothing: asking the file system which index the name holds
    /// (`index(url:)`) cost a `stat` each time, on the task that takes every partition in turn.
    public func commitPending() throws {
        guard !damageFound, let index = RawIndex.openedIndex(file: indexPath) else { return }
        do {
            try index.commitPending()
        } catch {
            let failure = (error as? DatabaseError).map { error in
                Failure(.store, "raw store: \(root.path)/index.sqlite: \(indexFailure(error))", at: indexPath, cause: error)
            } ?? error
            guard !damageFound else { return }
            throw failure
        }
    }

    /// Every stored fetch of `url`, oldest first.
    public func records(for url: String) throws -> [FetchRecord] {
        let index = try index(url: url)
        // Both read under the batch's lock: a commit between them would move records from the
        // batch to the table after the table was read, and neither read would see them.
        return try index.pending.withLock { batch in
            let lines = try query(url: url, on: index) { db in
                try String.fetchAll(db.cachedStatement(sql: "SELECT line FROM record WHERE url = ? ORDER BY id"),
                                    arguments: [url])
            }
            return Self.decode(lines + batch.lines(of: url), url: url)
        }
    }

    /// The newest fetch of `url`.
    public func latestRecord(for url: String) throws -> FetchRecord? {
        let index = try index(url: url)
        if let line = index.pending.withLock({ $0.newest(url) }) {
            return Self.decode([line], url: url).last
        }
        let lines = try query(url: url, on: index) { db in
            try String.fetchAll(db.cachedStatement(sql: "SELECT line FROM record WHERE url = ? ORDER BY id DESC LIMIT 1"),
                                arguments: [url])
        }
        return Self.decode(lines, url: url).last
    }

    /// The entity tag, sha256 and status of the newest fetch of `url`, when it has an entity tag:
    /// what comparing a folder's file by its stamp needs (`StoringSource.unchangedRecord`). Read
    /// by SQLite's JSON functions rather than decoding the whole record, headers and times,
    /// which cost more than the look-up itself, for every page of every night. A record that is
    /// not the store's JSON, or names another URL, gives nil, as it gives no record.
    ///
    /// `readAhead`: the tags of many URLs read before in one query (`latestEntityTags(for:)`),
    /// taken for `url` when they cover it and no record of it was added since.
    public func latestEntityTag(for url: String, readAhead: StoredEntityTags? = nil) throws -> StoredEntityTags.Tag? {
        let index = try index(url: url)
        let (line, added) = index.pending.withLock { ($0.newest(url), $0.added(url)) }
        if let line {
            return Self.decode([line], url: url).last.flatMap { record in
                record.headers["etag"].map { .init(entityTag: $0, sha256: record.sha256, status: record.status) }
            }
        }
        if let readAhead, !added, readAhead.covers(url) { return readAhead[url] }
        let row = try query(url: url, on: index) { db in
            try Row.fetchOne(db.cachedStatement(sql: """
                SELECT json_extract(line, '$.url') AS url, json_extract(line, '$.headers.etag') AS etag,
                       json_extract(line, '$.sha256') AS sha256, json_extract(line, '$.status') AS status
                FROM (SELECT line FROM record WHERE url = ? ORDER BY id DESC LIMIT 1) WHERE json_valid(line)
                """), arguments: [url])
        }
        return row.flatMap { Self.entityTag(in: $0, of: url) }
    }

    /// The newest fetch's entity tag of each of `urls`, as `latestEntityTag(for:)` reads one, in
    /// one query: a night revalidating a thousand folder pages paid a statement and a reader
    /// hop for each, a tenth of its time on three years of menus.
    public func latestEntityTags(for urls: some Collection<String>) throws -> StoredEntityTags {
        guard !urls.isEmpty else { return StoredEntityTags(tags: [:], asked: []) }
        let list = "[" + urls.map(jsonStringLiteral).joined(separator: ",") + "]"
        let rows = try query(url: indexPath) { db in
            try Row.fetchAll(db.cachedStatement(sql: """
                SELECT url AS asked, json_extract(line, '$.url') AS url, json_extract(line, '$.headers.etag') AS etag,
                       json_extract(line, '$.sha256') AS sha256, json_extract(line, '$.status') AS status
                FROM record WHERE id IN (
                    SELECT max(id) FROM record WHERE url IN (SELECT value FROM json_each(?)) GROUP BY url)
                AND json_valid(line)
                """), arguments: [list])
        }
        var tags: [String: StoredEntityTags.Tag] = [:]
        for row in rows {
            guard let asked = try? row.decode(String.self, forColumn: "asked"),
                  let tag = Self.entityTag(in: row, of: asked) else { continue }
            tags[asked] = tag
        }
        return StoredEntityTags(tags: tags, asked: Set(urls))
    }

    /// A row of `url`, etag, sha256 and status as a tag, each value read as it may be stored (a
    /// line edited by hand may hold a number where text belongs): one of another type gives
    /// nil, where a subscript would stop the process.
    private static func entityTag(in row: Row, of url: String) -> StoredEntityTags.Tag? {
        guard let recorded = try? row.decode(String?.self, forColumn: "url"), recorded == url,
              let tag = try? row.decode(String?.self, forColumn: "etag"),
              let sha256 = try? row.decode(String?.self, forColumn: "sha256"),
              let status = try? row.decode(Int?.self, forColumn: "status") else { return nil }
        return .init(entityTag: tag, sha256: sha256, status: status)
    }

    /// The newest fetch of each of `urls` the store has seen, by URL, in one query: a night
    /// judging hundreds of stored documents paid a statement and a reader hop for each.
    public func latestRecords(for urls: some Collection<String>) throws -> [String: FetchRecord] {
        guard !urls.isEmpty else { return [:] }
        let list = String(decoding: try JSONEncoder().encode(Array(urls)), as: UTF8.self)
        let index = try index(url: indexPath)
        var lines: [String: String] = [:]
        // Both read under the batch's lock, as in `records(for:)`.
        try index.pending.withLock { batch in
            // Decoded in the query, so that a value of the wrong type is the store's failure, with its row.
            lines = try query(url: indexPath, on: index) { db in
                var lines: [String: String] = [:]
                for row in try Row.fetchAll(db.cachedStatement(sql: """
                    SELECT url, line FROM record WHERE id IN (
                        SELECT max(id) FROM record WHERE url IN (SELECT value FROM json_each(?)) GROUP BY url)
                    """), arguments: [list]) {
                    try lines[row.decode(forColumn: "url")] = row.decode(String.self, forColumn: "line")
                }
                return lines
            }
            for url in urls {
                if let newer = batch.newest(url) { lines[url] = newer }
            }
        }
        var latest: [String: FetchRecord] = [:]
        for (url, line) in lines {
            if let record = Self.decode([line], url: url).first { latest[url] = record }
        }
        return latest
    }

    /// The bytes of a record, checked against its hash so a damaged body is never served; the
    /// damaged copy is dropped from the index, so that storing the document again rewrites it.
    public func body(of record: FetchRecord) throws -> Data {
        var pieces: [Data] = []
        try streamBody(of: record) { pieces.append($0) }
        // Nearly every page is one piece, handed on without a copy.
        return pieces.count == 1 ? pieces[0] : pieces.reduce(into: Data(capacity: record.size)) { $0.append($1) }
    }

    /// Hands the bytes of a record to `consume` in pieces, checking them against its sha256 as
    /// they pass. Damage is known only at the end, after the pieces before it were handed over:
    /// the caller must treat the whole as failed then. The damaged copy is dropped from the
    /// index, so that the next fetch stores the document again.
    public func streamBody(of record: FetchRecord, into consume: (Data) throws -> Void) throws {
        guard Self.isDigest(record.sha256) else {
            throw Failure(.store, "raw store: the record's sha256 is not 64 hex digits", at: record.url)
        }
        let index = try index(url: record.url)
        var digest = SHA256Stream()
        let complete: Bool
        let placed: PendingRecords.Placed
        switch try body(record, in: index) {
        case .held(let bytes):
            // Held in memory until its batch is committed: as the fetch handed it over.
            try consume(bytes)
            return
        case .placed(let location):
            placed = location
        }
        do {
            complete = try PackWriter.read(folder: index.packFolder, pack: placed.pack, offset: placed.offset,
                                           length: placed.length) { piece in
                digest.update(piece)
                try consume(piece)
            }
        } catch let failure as Failure where failure.code == .fileSystem {
            throw Failure(.store, "raw store: \(failure.message)", at: record.url, cause: failure)
        }
        guard complete, digest.hex == record.sha256 else {
            index.forgetBody(record.sha256)
            throw Failure(.store,
                          "raw store: the body of \(record.sha256) in packs/\(placed.pack).pack is missing or no longer matches its sha256",
                          at: record.url)
        }
    }

    /// Where the body of `record` is: in the batch not yet committed, or where the index says.
    private func body(_ record: FetchRecord, in index: RawIndex) throws -> PendingRecords.Body {
        if let pending = index.pending.withLock({ $0.body(record.sha256) }) { return pending }
        // Decoded in the query, so that a value of the wrong type is the store's failure, with its row.
        let packed = try query(url: record.url, on: index) { db in
            try Row.fetchOne(db.cachedStatement(sql: "SELECT pack, offset, length FROM packed WHERE sha256 = ?"),
                             arguments: [record.sha256])
                .map { row in
                    try PendingRecords.Placed(pack: row.decode(forColumn: "pack"), offset: row.decode(forColumn: "offset"),
                                              length: row.decode(forColumn: "length"))
                }
        }
        guard let packed else {
            throw Failure(.store,
                          "raw store: the body of \(record.sha256) is not stored (dropped when found damaged); fetch it again",
                          at: record.url)
        }
        return .placed(packed)
    }

    /// The most recent fetch of `url` as a document, or nil when the store has never seen it.
    public func latestDocument(for url: String) throws -> FetchedDocument? {
        try latestRecord(for: url).map(document(of:))
    }

    /// The fetch `record` describes as a document, its body read and checked.
    public func document(of record: FetchRecord) throws -> FetchedDocument {
        var document = FetchedDocument(
            url: record.url, status: record.status, headers: record.headers, body: try body(of: record),
            charset: record.charset, sha256: record.sha256, fetchedAt: record.fetchedAt,
            notModified: record.notModified)
        document.digestOrigin = DigestOrigin(computedFromBody: true)
        return document
    }

    private func index(url: String) throws -> RawIndex {
        do {
            return try RawIndex.shared(file: indexPath)
        } catch let damaged as Failure where damaged.code == .damagedRawIndex {
            throw Failure(.store, "raw store: \(damaged)", at: url, cause: damaged)
        } catch {
            throw Failure(.store, "raw store: cannot open \(root.path)/index.sqlite: \(indexFailure(error))", at: url, cause: error)
        }
    }

    /// Runs one statement on a reader. Each caller reads with a single SELECT, which SQLite
    /// makes consistent on its own, so no transaction is opened around it: GRDB's `read` parses
    /// a BEGIN and a COMMIT every time, which cost more than the lookup on a run that asks for
    /// thousands of pages.
    /// `index`: the store's index when the caller has it already (each lookup checks the file).
    private func query<T>(url: String, on index: RawIndex? = nil, _ read: (Database) throws -> T) throws -> T {
        let pool = try (index ?? self.index(url: url)).pool
        do {
            return try pool.unsafeRead(read)
        } catch {
            throw Failure(.store, "raw store: cannot read \(root.path)/index.sqlite: \(indexFailure(error))", at: url, cause: error)
        }
    }

    private static func decode(_ lines: [String], url: String) -> [FetchRecord] {
        lines.compactMap { line in
            guard let record = try? FetchRecord.decode(Data(line.utf8)), record.url == url else { return nil }
            return record
        }
    }

    /// SQLite's words for a failure, without GRDB's wrapping (the statement, the Swift type).
    private static func plain(_ error: any Error) -> String {
        if error is RowDecodingError { return valueDecodingWords(error) }
        return (error as? DatabaseError).map { $0.message ?? "SQLite error \($0.resultCode.rawValue)" }
            ?? SystemMessage.describe(error)
    }

    /// A lower-case hex SHA-256, the only thing the store files bodies under.
    static func isDigest(_ sha256: String) -> Bool {
        sha256.utf8.count == 64 && sha256.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }
}
