import GRDB

/// Records are committed to the index a batch at a time: when `batchSize` are waiting, when a
/// document is stored whole from a stream (a dump too large to fetch twice), and whenever the run
/// is about to name documents in its ledger (`RawStore.commitPending`), so that a partition the
/// ledger calls done never points at a record the index lacks. A kill loses only records no
/// ledger entry names yet: their documents are fetched again, and their bodies lie unindexed in
/// a pack, as a body whose append was cut short does.
extension RawIndex {
    static let batchSize = 256

    /// Adds a fetch's record and, unless a body with its sha256 is packed already, where its body
    /// lies (`place` puts it there, and is not called for a known body). True when the body was
    /// known. `commitNow`: commit the batch with this record in it before returning.
    func add(_ record: FetchRecord, commitNow: Bool,
             placing place: () throws -> (pack: String, offset: Int64)) throws -> Bool {
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
                batch.add(body: .init(pack: location.pack, offset: location.offset, length: record.size),
                          sha256: record.sha256)
            }
            batch.add(url: record.url, line: line)
            if commitNow || batch.count >= Self.batchSize { try commit(&batch) }
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

    /// A batch that cannot be committed is dropped, not kept to fail again: its documents are
    /// fetched again by a later run, like any lost cache entry.
    private func commit(_ batch: inout PendingRecords) throws {
        guard batch.count > 0 else { return }
        defer { batch.removeAll() }
        try pool.write { db in try batch.insert(into: db) }
    }
}
