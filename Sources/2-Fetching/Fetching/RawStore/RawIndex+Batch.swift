import Foundation
import GRDB

/// Records are committed to the index a batch at a time: when `batchSize` are waiting or their
/// bodies pass `batchBytes`, when a document is stored whole from a stream (a dump too large to
/// fetch twice), and whenever the run is about to name documents in its ledger
/// (`RawStore.commitPending`), so that a partition the ledger calls done never points at a
/// record the index lacks. A kill loses only records no ledger entry names yet, with the
/// bodies held for them: their documents are fetched again.
extension RawIndex {
    static let batchSize = 256
    /// Held bodies past this many bytes commit the batch: a batch of large documents stays small.
    static let batchBytes = 16 << 20

    /// Adds a fetch's record and its body, held until the batch is committed.
    func add(_ record: FetchRecord, body: Data) throws {
        let line = FetchRecord.line(of: record)
        try pending.withLock { batch in
            batch.add(.held(body), sha256: record.sha256)
            batch.add(url: record.url, line: line)
            if batch.count >= Self.batchSize || batch.heldBytes >= Self.batchBytes { try commit(&batch) }
        }
    }

    /// Adds a fetch's record whose body `place` appends to a pack, unless one with its sha256 is
    /// packed already (then `place` is not called), and commits the batch with it. True when the
    /// body was known.
    func addCommitting(_ record: FetchRecord, placing place: () throws -> (pack: String, offset: Int64)) throws -> Bool {
        let line = FetchRecord.line(of: record)
        return try pending.withLock { batch in
            var known = batch.body(record.sha256) != nil
            if !known {
                known = try pool.unsafeRead { db in
                    try Bool.fetchOne(db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM packed WHERE sha256 = ?)"),
                                      arguments: [record.sha256]) ?? false
                }
            }
            if !known {
                let location = try place()
                batch.add(.placed(.init(pack: location.pack, offset: location.offset, length: record.size)),
                          sha256: record.sha256)
            }
            batch.add(url: record.url, line: line)
            try commit(&batch)
            return known
        }
    }

    /// Forgets where a body lies, found damaged, whether committed or not: the next store of its
    /// document packs it again. Best effort: an index that cannot be written fails the next use.
    func forgetBody(_ sha256: String) {
        pending.withLock { $0.removeBody(sha256) }
        _ = try? pool.write { db in
            try db.execute(sql: "DELETE FROM packed WHERE sha256 = ?", arguments: [sha256])
        }
    }

    /// Commits every record added so far.
    func commitPending() throws {
        try pending.withLock { batch in try commit(&batch) }
    }

    /// A batch that cannot be committed (a full disk) is kept, and every later commit tries it
    /// again, so the failure reaches the commit before the ledger and stops the run there: a
    /// partition is never recorded done with records that were dropped. Bodies a failed attempt
    /// appended lie unindexed in the pack; the next attempt appends them again.
    private func commit(_ batch: inout PendingRecords) throws {
        guard batch.count > 0 else { return }
        try pool.write { db in try batch.insert(into: db, appending: packs.append) }
        batch.removeAll()
    }
}
