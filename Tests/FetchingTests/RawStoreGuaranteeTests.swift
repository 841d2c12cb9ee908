import Basics
import Foundation
import GRDB
import Testing
@testable import Fetching

/// The shortcuts the raw store takes for speed (no second hash of bytes this module hashed, one
/// shared timestamp formatter, bodies appended to a pack instead of a file each, no fsync) must not
/// weaken what it guarantees.
@Suite struct RawStoreGuaranteeTests {
    static let recipeURL = "https://menu.dining.ucla.edu/" + SharedData.recipePage

    @Test func aDocumentChangedAfterItsDigestWasComputedIsStillRefused() async throws {
        let folder = try makeScratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var document = try await DirectorySource(root: SharedData.root).fetch(Self.recipeURL)
        #expect(document.digestOrigin.computedFromBody)
        document.body = Data("forged".utf8)

        #expect(!document.digestOrigin.computedFromBody)
        let error = #expect(throws: Failure.self) { try RawStore(root: folder).store(document) }
        #expect(error?.code == .store)
    }

    @Test func howADigestWasMadeDoesNotMakeDocumentsDiffer() async throws {
        let read = try await DirectorySource(root: SharedData.root).fetch(Self.recipeURL)
        let rebuilt = FetchedDocument(url: read.url, status: read.status, headers: read.headers, body: read.body,
                                      charset: read.charset, sha256: read.sha256, fetchedAt: read.fetchedAt)
        #expect(!rebuilt.digestOrigin.computedFromBody)
        #expect(read == rebuilt)
        #expect(Set([read, rebuilt]).count == 1)
    }

    /// A body cut short or changed in its pack (a power loss, a damaged disk) is unindexed by
    /// the read that finds it, so the next fetch of the page stores it again.
    @Test func aDamagedObjectIsRewrittenByTheNextStore() async throws {
        let folder = try makeScratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = RawStore(root: folder)
        let document = try await DirectorySource(root: SharedData.root).fetch(Self.recipeURL)
        try store.store(document)
        try store.commitPending()
        let packs = folder.appendingPathComponent("packs")
        let pack = try #require(try FileManager.default.contentsOfDirectory(atPath: packs.path).first)
        try Data(document.body.prefix(100)).write(to: packs.appendingPathComponent(pack))
        let index = try DatabaseQueue(path: folder.appendingPathComponent("index.sqlite").path)
        let count = { try index.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM packed") } }

        #expect(throws: Failure.self) { try store.latestDocument(for: Self.recipeURL) }
        #expect(try count() == 0)
        try store.store(document)
        #expect(try store.latestDocument(for: Self.recipeURL)?.body == document.body)
    }

    /// 1,000,000,000 s after the epoch is 2001-09-09 01:46:40 UTC.
    @Test func timestampsReadAsTheFormatterWroteThem() throws {
        let billennium = Date(timeIntervalSince1970: 1_000_000_000.25)
        #expect(ISOTimestamp.string(from: billennium) == "2001-09-09T01:46:40Z")
        #expect(ISOTimestamp.millisecondString(from: billennium) == "2001-09-09T01:46:40.250Z")
        #expect(ISOTimestamp.date(fromMillisecondString: "2001-09-09T01:46:40.250Z") == billennium)
    }

    @Test func recordsStoredFromManyThreadsAllReadBack() async throws {
        let folder = try makeScratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = RawStore(root: folder)
        let base = Date(timeIntervalSince1970: 1_700_000_000)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<64 {
                group.addTask {
                    let body = Data("page \(index % 8)".utf8)
                    try store.store(FetchedDocument(url: "https://example.org/\(index % 4)", status: 200, headers: [:],
                                                    body: body, charset: nil, sha256: sha256Hex(body),
                                                    fetchedAt: base.addingTimeInterval(Double(index) / 1000)))
                }
            }
            try await group.waitForAll()
        }
        let records = try (0..<4).flatMap { try store.records(for: "https://example.org/\($0)") }
        #expect(records.count == 64)
        let expected = (0..<64).map { base.addingTimeInterval(Double($0) / 1000) }
        #expect(Set(records.map(\.fetchedAt)).count == 64)
        #expect(records.map(\.fetchedAt).sorted().map { ISOTimestamp.millisecondString(from: $0) }
                == expected.map { ISOTimestamp.millisecondString(from: $0) })
    }
}
