import Basics
import Foundation
import GRDB
import Testing
@testable import Fetching

@Suite struct RawStoreTests {
    /// The recipe page's `sha256sum`, computed outside the code under test.
    static let recipeDigest = "e33dfa7ea9eee461b1f7eac355f651cdfd20136c9ba06cd16d9653fdcedaedf2"

    func document(url: String, body: Data, at date: Date = Date()) -> FetchedDocument {
        FetchedDocument(
            url: url, status: 200, headers: ["content-type": "text/html; charset=utf-8", "etag": "\"abc\""],
            body: body, charset: "utf-8", sha256: sha256Hex(body), fetchedAt: date)
    }

    /// The index, opened the way any SQLite client would, to see what the store wrote.
    func index(_ folder: URL) throws -> DatabaseQueue {
        try DatabaseQueue(path: folder.appendingPathComponent("index.sqlite").path)
    }

    /// Where the index says a body lies, read straight from the pack file.
    func packedBytes(_ folder: URL, sha256: String) throws -> Data? {
        guard let row = try index(folder).read({ db in
            try Row.fetchOne(db, sql: "SELECT pack, offset, length FROM packed WHERE sha256 = ?", arguments: [sha256])
        }) else { return nil }
        let pack: String = row["pack"]
        let offset: Int = row["offset"]
        let length: Int = row["length"]
        let bytes = try Data(contentsOf: folder.appendingPathComponent("packs/\(pack).pack"))
        return bytes.subdata(in: offset..<(offset + length))
    }

    @Test func bodyIsStoredUnderItsDigest() throws {
        let folder = try makeScratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let page = try SharedData.bytes(SharedData.recipePage)
        let store = RawStore(root: folder)
        let record = try store.store(document(url: "https://menu.dining.ucla.edu/Recipes/400317/1", body: page))
        try store.commitPending()

        #expect(record.sha256 == Self.recipeDigest)
        #expect(try packedBytes(folder, sha256: Self.recipeDigest) == page)
    }

    @Test func storingTheSameBodyAgainKeepsOneCopy() throws {
        let folder = try makeScratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = RawStore(root: folder)
        let page = try SharedData.bytes(SharedData.recipePage)
        let url = "https://menu.dining.ucla.edu/Recipes/400317/1"
        try store.store(document(url: url, body: page))
        try store.store(document(url: url, body: page))
        try store.store(document(url: url, body: Data("another body".utf8)))
        try store.commitPending()

        #expect(try index(folder).read { try Int.fetchOne($0, sql: "SELECT count(*) FROM packed") } == 2)
        let packs = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("packs").path)
        #expect(packs.count == 1)
        let size = try FileManager.default.attributesOfItem(
            atPath: folder.appendingPathComponent("packs/\(packs[0])").path)[.size] as? Int
        #expect(size == page.count + "another body".utf8.count)
        #expect(try store.records(for: url).count == 3)
        #expect(try packedBytes(folder, sha256: sha256Hex(Data("another body".utf8))) == Data("another body".utf8))
    }

    @Test func replayReturnsTheLatestStoredBytes() async throws {
        let folder = try makeScratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = RawStore(root: folder)
        let url = "https://www.themealdb.com/api/json/v1/1/lookup.php?i=52771"
        let older = try SharedData.bytes(SharedData.recipePage)
        let newer = try SharedData.bytes("themealdb/responses/lookup-52771.json")
        try store.store(document(url: url, body: older, at: Date(timeIntervalSince1970: 1_700_000_000)))
        try store.store(document(url: url, body: newer, at: Date(timeIntervalSince1970: 1_700_000_060)))

        let replayed = try #require(try store.latestDocument(for: url))

        #expect(replayed.body == newer)
        #expect(replayed.sha256 == "4c86fd98544fa10ee573979c12967f6d07b4be1515dcb3677bf64a9469b75d80")
        #expect(replayed.headers["etag"] == "\"abc\"")
        #expect(replayed.charset == "utf-8")
        #expect(replayed.fetchedAt == Date(timeIntervalSince1970: 1_700_000_060))
    }

    /// One query answers for many URLs with each one's newest fetch, as `latestRecord` does
    /// one at a time; a URL never fetched is simply absent.
    @Test func theNewestRecordsOfManyURLsComeInOneLookUp() throws {
        let folder = try makeScratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = RawStore(root: folder)
        let first = "https://example.org/recipes/1.json"
        let second = "https://example.org/recipes/2.json"
        try store.store(document(url: first, body: Data("one, older".utf8), at: Date(timeIntervalSince1970: 1_700_000_000)))
        try store.store(document(url: second, body: Data("two".utf8), at: Date(timeIntervalSince1970: 1_700_000_030)))
        try store.store(document(url: first, body: Data("one, newer".utf8), at: Date(timeIntervalSince1970: 1_700_000_060)))

        let latest = try store.latestRecords(for: [first, second, "https://example.org/never-fetched"])

        #expect(latest.count == 2)
        #expect(latest[first]?.sha256 == sha256Hex(Data("one, newer".utf8)))
        #expect(latest[first]?.fetchedAt == Date(timeIntervalSince1970: 1_700_000_060))
        #expect(latest[second]?.sha256 == sha256Hex(Data("two".utf8)))
        #expect(latest[second]?.headers["etag"] == "\"abc\"")
        #expect(try store.latestRecords(for: [String]()).isEmpty)
    }

    /// A store whose folder was wiped and made again starts empty and keeps what it is given.
    @Test func aWipedFolderGetsAFreshIndex() throws {
        let folder = try makeScratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = "https://example.org/page"
        try RawStore(root: folder).store(document(url: url, body: Data("before".utf8)))
        try FileManager.default.removeItem(at: folder)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)

        #expect(try RawStore(root: folder).latestDocument(for: url) == nil)
        try RawStore(root: folder).store(document(url: url, body: Data("after".utf8)))
        try RawStore(root: folder).commitPending()
        #expect(try index(folder).read { try Int.fetchOne($0, sql: "SELECT count(*) FROM record") } == 1)
    }

    @Test func anUnknownURLHasNoStoredCopy() async throws {
        let folder = try makeScratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(try RawStore(root: folder).latestDocument(for: "https://example.org/never-fetched") == nil)
    }

    @Test func aURLThatClimbsCannotLeaveTheStore() throws {
        let parent = try makeScratchFolder()
        defer { try? FileManager.default.removeItem(at: parent) }
        let root = parent.appendingPathComponent("raw")
        let url = "http://evil.example/../../../../\(parent.lastPathComponent)/escaped"
        try RawStore(root: root).store(document(url: url, body: Data("payload".utf8)))

        #expect(try FileManager.default.contentsOfDirectory(atPath: parent.path) == ["raw"])
        let files = try FileManager.default.contentsOfDirectory(atPath: root.path)
        #expect(files.allSatisfy { $0.hasPrefix("index.sqlite") || $0 == "packs" })
        #expect(try RawStore(root: root).records(for: url).map(\.url) == [url])
    }

    @Test func aTamperedRecordCannotSteerAPath() throws {
        let folder = try makeScratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = RawStore(root: folder)
        let url = "https://example.org/page"
        var record = try store.store(document(url: url, body: Data("page".utf8)))
        record.sha256 = "../../../../../../etc/hostname"
        let error = #expect(throws: Failure.self) { try store.body(of: record) }
        #expect(error?.code == .store)
    }

    @Test func aBodyThatDoesNotMatchItsDigestIsRefused() throws {
        let folder = try makeScratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var forged = document(url: "https://example.org/page", body: Data("real".utf8))
        forged.body = Data("forged".utf8)
        let error = #expect(throws: Failure.self) { try RawStore(root: folder).store(forged) }
        #expect(error?.code == .store)
    }

    @Test func aDamagedObjectIsNotServed() async throws {
        let folder = try makeScratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = RawStore(root: folder)
        let url = "https://example.org/page"
        try store.store(document(url: url, body: Data("original".utf8)))
        try store.commitPending()
        let pack = try #require(try FileManager.default.contentsOfDirectory(
            atPath: folder.appendingPathComponent("packs").path).first)
        try Data("bit rot!".utf8).write(to: folder.appendingPathComponent("packs/\(pack)"))

        let error = #expect(throws: Failure.self) { try store.latestDocument(for: url) }
        #expect(error?.code == .store)
        // Dropped on that read: every later read says so (no stale path), and storing the page
        // again makes it readable.
        let again = #expect(throws: Failure.self) { try store.latestDocument(for: url) }
        #expect(again?.message.contains("not stored") == true, "\(again.map { "\($0)" } ?? "")")
        try store.store(document(url: url, body: Data("original".utf8)))
        #expect(try store.latestDocument(for: url)?.body == Data("original".utf8))
    }

    /// A value of the wrong type in the index (an offset that is text, a record line that is
    /// bytes and no UTF-8: a file edited or written by something else) is the store's failure,
    /// naming the column, where reading it stopped the process.
    @Test func anIndexValueOfTheWrongTypeIsTheStoresFailure() throws {
        let folder = try makeScratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = RawStore(root: folder)
        let url = "https://example.org/page"
        let record = try store.store(document(url: url, body: Data("page".utf8)))
        try store.commitPending()
        try index(folder).write { db in try db.execute(sql: "UPDATE packed SET offset = 'start'") }
        let offset = #expect(throws: Failure.self) { try store.body(of: record) }
        #expect(offset?.code == .store)
        #expect(offset?.message.contains("offset") == true, "\(offset.map { "\($0)" } ?? "")")

        try index(folder).write { db in try db.execute(sql: "UPDATE record SET line = x'ff'") }
        let line = #expect(throws: Failure.self) { try store.latestRecords(for: [url]) }
        #expect(line?.code == .store)
        #expect(line?.message.contains("line") == true, "\(line.map { "\($0)" } ?? "")")
        #expect(line?.message.contains("example.org") == false, "the column, not the row it is in")
    }

    /// Records are committed a batch at a time: the store answers from a record at once, another
    /// SQLite client sees it once the batch is committed (by `commitPending`, or by itself when
    /// `RawIndex.batchSize` records wait), and a body stored twice in one batch is packed once.
    @Test func recordsAreCommittedInBatchesAndReadAtOnce() throws {
        let folder = try makeScratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = RawStore(root: folder)
        let records = { try self.index(folder).read { try Int.fetchOne($0, sql: "SELECT count(*) FROM record") } }
        try store.store(document(url: "https://example.org/a", body: Data("a".utf8), at: Date(timeIntervalSince1970: 10)))
        try store.store(document(url: "https://example.org/a", body: Data("a2".utf8), at: Date(timeIntervalSince1970: 20)))
        let b = try store.store(document(url: "https://example.org/b", body: Data("a".utf8)))

        #expect(try records() == 0)
        #expect(try store.latestDocument(for: "https://example.org/a")?.body == Data("a2".utf8))
        #expect(try store.records(for: "https://example.org/a").map(\.size) == [1, 2])
        #expect(try store.latestRecords(for: ["https://example.org/a", "https://example.org/b"]).mapValues(\.size)
            == ["https://example.org/a": 2, "https://example.org/b": 1])
        #expect(try store.body(of: b) == Data("a".utf8))
        try store.commitPending()
        #expect(try records() == 3)
        #expect(try index(folder).read { try Int.fetchOne($0, sql: "SELECT count(*) FROM packed") } == 2)
        #expect(try store.records(for: "https://example.org/a").map(\.size) == [1, 2])

        for number in 0..<RawIndex.batchSize {
            try store.store(document(url: "https://example.org/\(number)", body: Data("\(number)".utf8)))
        }
        #expect(try records() == 3 + RawIndex.batchSize)
    }
}
