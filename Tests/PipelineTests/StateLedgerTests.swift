import FoodModel
import Foundation
import Pipeline
import Snapshot
import TestSupport
import Testing

@Suite struct StateLedgerTests {
    @Test func remembersPartitionsAndTheRunThatWasInterrupted() throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("state/demo.ledger.sqlite")
        let document = SourceDocument(url: "file:///a", fetchedAt: "2026-10-12T02:00:00Z", status: 200,
                                      sha256: String(repeating: "a", count: 64), charset: nil, byteCount: 3)
        do {
            let ledger = try StateLedger(url: url)
            try ledger.beginRun("r1", startedAt: "2026-10-12T02:00:00Z")
            try ledger.record(PartitionState(source: "menus", key: "2026-10-10", status: .done,
                                             documents: [document], runId: "r1", updatedAt: "t"))
            try ledger.record(PartitionState(source: "menus", key: "2026-10-11", status: .failed,
                                             documents: [], runId: "r1", updatedAt: "t", message: "404"))
        }
        // A new process opens the same file: the run never finished.
        let ledger = try StateLedger(url: url)
        #expect(try ledger.interruptedRuns() == ["r1"])
        #expect(try ledger.state(source: "menus", key: "2026-10-10")?.documents == [document])
        #expect(try ledger.state(source: "menus", key: "2026-10-11")?.message == "404")
        #expect(try ledger.state(source: "menus", key: "2026-10-12") == nil)
        try ledger.beginRun("r2", startedAt: "2026-10-12T03:00:00Z")
        #expect(try ledger.interruptedRuns() == ["r1", "r2"])
        try ledger.finishRuns()
        #expect(try ledger.interruptedRuns().isEmpty)
        // Finishing runs keeps what they did.
        #expect(try ledger.state(source: "menus", key: "2026-10-10")?.status == .done)
    }
}
