import Basics
import Foundation
import GRDB
import TestSupport
import Testing
@testable import Fetching
#if canImport(Glibc)
import Glibc
#endif

/// A folder's file still as it was stored is known by its stamp, unread; any write, a file put
/// in its place or times set back make it read again, and so does a stamp taken too soon after
/// the file last changed. Real files, a real raw store.
@Suite struct FileStampTests {
    @Test func aFileIsTakenUnreadOnlyWhileItsStampIsTheOneStoredWithItsBytes() async throws {
        let folder = try makeScratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let site = folder.appendingPathComponent("site", isDirectory: true)
        try FileManager.default.createDirectory(at: site, withIntermediateDirectories: true)
        func url(_ name: String) -> String { "file:///\(name)" }
        let bytes = Data("<html><body>Breakfast: oatmeal</body></html>".utf8)
        for name in ["kept", "rewritten", "replaced", "retimed", "replacement"] {
            try bytes.write(to: site.appendingPathComponent(name))
        }
        let store = RawStore(root: folder.appendingPathComponent("raw"))
        let source = StoringSource(upstream: DirectorySource(root: site), store: store)

        // Fetched at once, a file is too new for its stamp to stand for its bytes: none is stored.
        let fresh = try await source.fetch(url("kept"))
        #expect(fresh.headers["etag"] == nil)
        #expect(source.unchangedRecord(of: url("kept")) == nil)

        // Past the settling time each fetch stores the stamp, and the stamp alone finds the record.
        try await Task.sleep(for: .seconds(FileStamp.settling + 2))
        var stored: [String: String] = [:]
        for name in ["kept", "rewritten", "replaced", "retimed"] {
            let document = try await source.fetch(url(name))
            #expect(document.headers["etag"]?.hasPrefix("\"file-") == true, "\(name)")
            let record = try #require(source.unchangedRecord(of: url(name)), "\(name)")
            #expect(record.sha256 == document.sha256 && record.status == 200, "\(name)")
            stored[name] = record.sha256
        }
        // Committed, the records are read back from the index (before, from the batch in memory).
        try store.commitPending()
        for name in ["kept", "rewritten", "replaced", "retimed"] {
            #expect(source.unchangedRecord(of: url(name))?.sha256 == stored[name], "\(name)")
        }
        // Read for many URLs at once, the tags find the same records; a URL never fetched has none.
        let names = ["kept", "rewritten", "replaced", "retimed"]
        let readAhead = try #require(source.readEntityTags(of: (names + ["never"]).map(url)))
        for name in names {
            #expect(source.unchangedRecord(of: url(name), readAhead: readAhead)?.sha256 == stored[name], "\(name)")
        }
        #expect(source.unchangedRecord(of: url("never"), readAhead: readAhead) == nil)
        // A read-ahead is a folder's alone: nothing else compares by stamps.
        struct Elsewhere: DocumentSource {
            func fetch(_ url: String) async throws -> FetchedDocument {
                throw Failure(.notFound, "not served here", at: url)
            }
        }
        #expect(StoringSource(upstream: Elsewhere(), store: store).readEntityTags(of: [url("kept")]) == nil)

        // The same number of bytes written over the first ones, in place.
        let handle = try FileHandle(forWritingTo: site.appendingPathComponent("rewritten"))
        try handle.write(contentsOf: Data("<html><body>Breakfast: granola</body></html>".utf8))
        try handle.close()
        // The same bytes under the same name, but another file.
        #expect(rename(site.appendingPathComponent("replacement").path, site.appendingPathComponent("replaced").path) == 0)
        // Written, then given back its old times, as `cp -p` or `rsync -t` would.
        let retimed = site.appendingPathComponent("retimed").path
        var before = stat()
        #expect(stat(retimed, &before) == 0)
        try Data("<html><body>Breakfast: waffles</body></html>".utf8).write(to: site.appendingPathComponent("retimed"))
        var times = [before.st_atim, before.st_mtim]
        #expect(utimensat(AT_FDCWD, retimed, &times, 0) == 0)

        #expect(source.unchangedRecord(of: url("kept"))?.sha256 == stored["kept"])
        for name in ["rewritten", "replaced", "retimed"] {
            #expect(source.unchangedRecord(of: url(name)) == nil, "\(name)")
            #expect(source.unchangedRecord(of: url(name), readAhead: readAhead) == nil, "\(name) read ahead")
        }

        // A record added after the read-ahead is the newest, pending or committed: here one
        // without a stamp (as a fetch too soon after a change stores), which vouches for nothing.
        let other = Data("<html><body>Breakfast: eggs</body></html>".utf8)
        try store.store(FetchedDocument(url: url("kept"), status: 200, headers: [:], body: other, charset: nil,
                                        sha256: sha256Hex(other), fetchedAt: Date()))
        #expect(source.unchangedRecord(of: url("kept"), readAhead: readAhead) == nil)
        try store.commitPending()
        #expect(source.unchangedRecord(of: url("kept"), readAhead: readAhead) == nil)
        #expect(source.unchangedRecord(of: url("kept")) == nil)
        // Fetched again, the still file is stored with its stamp once more, as below expects.
        _ = try await source.fetch(url("kept"))

        // Read again at once, the rewritten file's new bytes are stored without a stamp: until it
        // has been still long enough, it is read every time.
        let reread = try await source.fetch(url("rewritten"))
        #expect(reread.sha256 != stored["rewritten"])
        #expect(reread.headers["etag"] == nil)
        #expect(source.unchangedRecord(of: url("rewritten")) == nil)

        // A record that is no longer the store's JSON vouches for nothing: the file is read.
        try store.commitPending()
        #expect(source.unchangedRecord(of: url("kept")) != nil)
        let kept = url("kept")
        let index = try DatabaseQueue(path: folder.appendingPathComponent("raw/index.sqlite").path)
        // Nor does one whose values are of another type (a status in words, an entity tag that is
        // a number): read as no record, where reading them as text and a number stopped the process.
        let newest = try #require(try await index.read { db in
            try Row.fetchOne(db, sql: "SELECT id, line FROM record WHERE url = ? ORDER BY id DESC LIMIT 1", arguments: [kept])
        })
        let (id, line): (Int64, String) = (newest["id"], newest["line"])
        for edit in ["json_set(line, '$.status', 'two hundred')", "json_set(line, '$.headers.etag', 42)"] {
            try await index.write { db in
                try db.execute(sql: "UPDATE record SET line = \(edit) WHERE id = ?", arguments: [id])
            }
            #expect(source.unchangedRecord(of: kept) == nil, "\(edit)")
            #expect(source.unchangedRecord(of: kept, readAhead: source.readEntityTags(of: [kept])) == nil, "\(edit) read ahead")
            try await index.write { db in
                try db.execute(sql: "UPDATE record SET line = ? WHERE id = ?", arguments: [line, id])
            }
            #expect(source.unchangedRecord(of: kept) != nil, "\(edit) undone")
        }
        try await index.write { db in
            try db.execute(sql: "UPDATE record SET line = substr(line, 1, 40) WHERE url = ?", arguments: [kept])
        }
        #expect(source.unchangedRecord(of: url("kept")) == nil)
        #expect(source.unchangedRecord(of: kept, readAhead: source.readEntityTags(of: [kept])) == nil)
    }
}
