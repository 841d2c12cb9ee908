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

    @Test func bodyIsStoredUnderItsDigest() throws {
        let folder = try makeScratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let page = try SharedData.bytes(SharedData.recipePage)
        let record = try RawStore(root: folder).store(document(url: "https://menu.dining.ucla.edu/Recipes/400317/1", body: page))

        #expect(record.sha256 == Self.recipeDigest)
        let stored = try index(folder).read { db in
            try Data.fetchOne(db, sql: "SELECT body FROM object WHERE sha256 = ?", arguments: [Self.recipeDigest])
        }
        #expect(stored == page)
    }

    @Test func storingTheSameBodyAgainKeepsOneCopy() throws {
        let folder = try makeScratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = RawStore(root: folder)
        let page = try SharedData.bytes(SharedData.recipePage)
        let url = "https://menu.dining.ucla.edu/Recipes/400317/1"
        try store.store(document(url: url, body: page))
        try store.store(document(url: url, body: page))

        #expect(try index(folder).read { try Int.fetchOne($0, sql: "SELECT count(*) FROM object") } == 1)
        #expect(try store.records(for: url).count == 2)
    }

    /// A body over the index's limit (a recipe dump) is a file named by its sha256.
    @Test func aLargeBodyIsAFileNamedByItsDigest() throws {
        let folder = try makeScratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = RawStore(root: folder)
        let body = Data(repeating: UInt8(ascii: "x"), count: RawStore.inlineLimit + 1)
        let record = try store.store(document(url: "file:///dumps/meals.json", body: body))
        let object = try #require(store.objectFile(sha256: record.sha256))

        #expect(object.path.hasSuffix("objects/\(record.sha256.prefix(2))/\(record.sha256)"))
        #expect(try Data(contentsOf: object) == body)
        #expect(try index(folder).read { try Int.fetchOne($0, sql: "SELECT count(*) FROM object") } == 0)
        #expect(try store.latestDocument(for: "file:///dumps/meals.json")?.body == body)
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

        let replayed = try await ReplaySource(store: store).fetch(url)

        #expect(replayed.body == newer)
        #expect(replayed.sha256 == "4c86fd98544fa10ee573979c12967f6d07b4be1515dcb3677bf64a9469b75d80")
        #expect(replayed.headers["etag"] == "\"abc\"")
        #expect(replayed.charset == "utf-8")
        #expect(replayed.fetchedAt == Date(timeIntervalSince1970: 1_700_000_060))
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
        #expect(try index(folder).read { try Int.fetchOne($0, sql: "SELECT count(*) FROM record") } == 1)
    }

    @Test func replayOfAnUnknownURLIsNotFound() async throws {
        let folder = try makeScratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let error = await #expect(throws: FetchError.self) {
            try await ReplaySource(store: RawStore(root: folder)).fetch("https://example.org/never-fetched")
        }
        #expect(error?.code == .notFound)
    }

    @Test func aURLThatClimbsCannotLeaveTheStore() throws {
        let parent = try makeScratchFolder()
        defer { try? FileManager.default.removeItem(at: parent) }
        let root = parent.appendingPathComponent("raw")
        let url = "http://evil.example/../../../../\(parent.lastPathComponent)/escaped"
        try RawStore(root: root).store(document(url: url, body: Data("payload".utf8)))

        #expect(try FileManager.default.contentsOfDirectory(atPath: parent.path) == ["raw"])
        let files = try FileManager.default.contentsOfDirectory(atPath: root.path)
        #expect(files.allSatisfy { $0.hasPrefix("index.sqlite") })
        #expect(try RawStore(root: root).records(for: url).map(\.url) == [url])
        #expect(RawStore(root: root).objectFile(sha256: "../../../../etc/passwd") == nil)
    }

    @Test func aTamperedRecordCannotSteerAPath() throws {
        let folder = try makeScratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = RawStore(root: folder)
        let url = "https://example.org/page"
        var record = try store.store(document(url: url, body: Data("page".utf8)))
        record.sha256 = "../../../../../../etc/hostname"
        let error = #expect(throws: FetchError.self) { try store.body(of: record) }
        #expect(error?.code == .store)
    }

    /// A workspace from before the index: its records files and objects are still read (a line
    /// torn by a crash skipped), older than anything the index holds for the same URL.
    @Test func theLayoutBeforeTheIndexIsStillRead() throws {
        let folder = try makeScratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = RawStore(root: folder)
        let url = "https://example.org/page"
        let old = document(url: url, body: Data("complete".utf8), at: Date(timeIntervalSince1970: 1_700_000_000))
        let object = try #require(store.objectFile(sha256: old.sha256))
        try FileManager.default.createDirectory(at: object.deletingLastPathComponent(), withIntermediateDirectories: true)
        try old.body.write(to: object)
        let records = store.recordsFile(for: url)
        try FileManager.default.createDirectory(at: records.deletingLastPathComponent(), withIntermediateDirectories: true)
        try (FetchRecord.encode(FetchRecord(old)) + Data("\n{\"url\":\"https://exa".utf8)).write(to: records)

        #expect(try store.latestDocument(for: url)?.body == Data("complete".utf8))
        try store.store(document(url: url, body: Data("newer".utf8)))
        #expect(try store.records(for: url).map(\.sha256) == [old.sha256, sha256Hex(Data("newer".utf8))])
        #expect(try store.latestDocument(for: url)?.body == Data("newer".utf8))
    }

    @Test func aBodyThatDoesNotMatchItsDigestIsRefused() throws {
        let folder = try makeScratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var forged = document(url: "https://example.org/page", body: Data("real".utf8))
        forged.body = Data("forged".utf8)
        let error = #expect(throws: FetchError.self) { try RawStore(root: folder).store(forged) }
        #expect(error?.code == .store)
    }

    @Test func aDamagedObjectIsNotServed() async throws {
        let folder = try makeScratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = RawStore(root: folder)
        let url = "https://example.org/page"
        let record = try store.store(document(url: url, body: Data("original".utf8)))
        try await index(folder).write { db in
            try db.execute(sql: "UPDATE object SET body = ? WHERE sha256 = ?", arguments: [Data("bit rot".utf8), record.sha256])
        }

        let error = await #expect(throws: FetchError.self) { try await ReplaySource(store: store).fetch(url) }
        #expect(error?.code == .store)
    }
}
