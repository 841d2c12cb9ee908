import Foundation
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

    @Test func bodyIsStoredUnderItsDigest() throws {
        let folder = try makeScratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let page = try SharedData.bytes(SharedData.recipePage)
        let record = try RawStore(root: folder).store(document(url: "https://menu.dining.ucla.edu/Recipes/400317/1", body: page))

        #expect(record.sha256 == Self.recipeDigest)
        let object = folder.appendingPathComponent("objects/e3/\(Self.recipeDigest)")
        #expect(try Data(contentsOf: object) == page)
    }

    @Test func storingTheSameBodyAgainDoesNotRewriteTheObject() throws {
        let folder = try makeScratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = RawStore(root: folder)
        let page = try SharedData.bytes(SharedData.recipePage)
        let url = "https://menu.dining.ucla.edu/Recipes/400317/1"
        try store.store(document(url: url, body: page))
        let object = folder.appendingPathComponent("objects/e3/\(Self.recipeDigest)").path
        let longAgo = Date(timeIntervalSince1970: 1_000_000_000)
        try FileManager.default.setAttributes([.modificationDate: longAgo], ofItemAtPath: object)

        try store.store(document(url: url, body: page))

        let modified = try FileManager.default.attributesOfItem(atPath: object)[.modificationDate] as? Date
        #expect(modified == longAgo)
        #expect(try store.records(for: url).count == 2)
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
        let records = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("records").path)
        #expect(records == ["\(sha256Hex(Data(url.utf8))).jsonl"])
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

    @Test func aLineTornByACrashIsSkipped() throws {
        let folder = try makeScratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = RawStore(root: folder)
        let url = "https://example.org/page"
        try store.store(document(url: url, body: Data("complete".utf8)))
        let handle = try FileHandle(forWritingTo: store.recordsFile(for: url))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("{\"url\":\"https://exa".utf8))
        try handle.close()

        #expect(try store.latestDocument(for: url)?.body == Data("complete".utf8))
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
        let object = try #require(store.objectFile(sha256: record.sha256))
        try Data("bit rot".utf8).write(to: object)

        let error = await #expect(throws: FetchError.self) { try await ReplaySource(store: store).fetch(url) }
        #expect(error?.code == .store)
    }
}
