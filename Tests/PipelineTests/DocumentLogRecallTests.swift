import Basics
import Fetching
import Foundation
import Pipeline
import SourceAdapters
import TestSupport
import Testing

/// `DocumentLog.recall`: the stored fetches of a partition's food documents, looked up at once,
/// serve each read in place of a lookup of its own.
@Suite struct DocumentLogRecallTests {
    @Test func recalledDocumentsAreServedFromTheStoreAndTheOthersAsked() async throws {
        let scratch = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let site = scratch.appendingPathComponent("site")
        try FileManager.default.createDirectory(at: site, withIntermediateDirectories: true)
        // The folder now prints another label for the stored page: a read served from the store
        // shows the stored bytes, one that asked shows these.
        try Data("label as printed tonight".utf8).write(to: site.appendingPathComponent("kept.html"))
        try Data("never stored".utf8).write(to: site.appendingPathComponent("asked.html"))
        let store = RawStore(root: scratch.appendingPathComponent("raw"))
        let stored = Data("label as stored".utf8)
        try store.store(FetchedDocument(url: "https://x.test/kept", status: 200, headers: [:], body: stored, charset: nil,
                                        sha256: sha256Hex(stored), fetchedAt: Date()))
        try store.commitPending()

        let log = DocumentLog(upstream: DirectorySource(root: site), known: store, clock: .system)
        await log.recall(["https://x.test/kept", "https://x.test/asked"])
        // A newer copy stored after the recall is not what the read serves: the read takes the
        // recalled record, and does not ask the store again.
        let newer = Data("label stored later".utf8)
        try store.store(FetchedDocument(url: "https://x.test/kept", status: 200, headers: [:], body: newer, charset: nil,
                                        sha256: sha256Hex(newer), fetchedAt: Date()))
        #expect(try await log.fetchUnlessKnown("https://x.test/kept").body == stored)
        #expect(try await log.fetchUnlessKnown("https://x.test/asked").body == Data("never stored".utf8))
        let counts = await log.counts
        #expect(counts.fresh == 1)
        #expect(counts.refetched == 1)
        #expect(await log.documents.map { $0.url } == ["https://x.test/kept", "https://x.test/asked"])
    }
}
