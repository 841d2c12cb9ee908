import Basics
import Fetching
import FoodModel
import Foundation
import GRDB
@testable import Pipeline
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
        #expect(try ledger.states(source: "menus")["2026-10-10"]?.documents == [document])
        #expect(try ledger.states(source: "menus")["2026-10-11"]?.message == "404")
        #expect(try ledger.states(source: "menus")["2026-10-12"] == nil)
        try ledger.beginRun("r2", startedAt: "2026-10-12T03:00:00Z")
        #expect(try ledger.interruptedRuns() == ["r1", "r2"])
        try ledger.finishRuns()
        #expect(try ledger.interruptedRuns().isEmpty)
        // Finishing runs keeps what they did.
        #expect(try ledger.states(source: "menus")["2026-10-10"]?.status == .done)
    }

    /// Values of the wrong type in the ledger (a file edited by hand, or by another program):
    /// a missing document that does not read is asked again, as if unknown, and a partition that
    /// does not read is the ledger's damage, with the column and the remedy; neither stops the
    /// process, as reading them did.
    @Test func valuesOfTheWrongTypeDoNotStopTheProcess() throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("ledger.sqlite")
        let asked = Date(timeIntervalSince1970: 1_790_000_000)
        let missing = ["https://example.org/a", "https://example.org/b"].map {
            MissingDocument(url: $0, partition: "2026-10-10", status: 404, times: 2, firstMissing: asked, lastAsked: asked)
        }
        do {
            let ledger = try StateLedger(url: url)
            try ledger.beginRun("r1", startedAt: "2026-10-12T02:00:00Z")
            try ledger.record(PartitionState(source: "menus", key: "2026-10-10", status: .done, documents: [],
                                             runId: "r1", updatedAt: "t"))
            try ledger.finishRuns(recording: ["menus": MissingChanges(missing: missing)])
        }
        try DatabaseQueue(path: url.path).write { db in
            try db.execute(sql: "UPDATE missing_document SET times = 'twice' WHERE url = ?", arguments: [missing[0].url])
            try db.execute(sql: "UPDATE partition SET run_id = x'ff'")
        }
        let ledger = try StateLedger(url: url)
        #expect(try ledger.missingDocuments(source: "menus") == [missing[1].url: missing[1]])
        let refused = #expect(throws: Failure.self) { try ledger.states(source: "menus") }
        #expect(refused?.code == .damagedLedger)
        #expect(refused?.message.contains("column: \"run_id\"") == true, "\(refused.map { "\($0)" } ?? "")")
        // Documents that are not the ledger's JSON, the same way.
        try DatabaseQueue(path: url.path).write { db in
            try db.execute(sql: "UPDATE partition SET run_id = 'r1', documents = '[{\"url\": 1}]'")
        }
        let unreadable = #expect(throws: Failure.self) { try StateLedger(url: url).states(source: "menus") }
        #expect(unreadable?.code == .damagedLedger)
        #expect(unreadable?.message.contains("whose documents are not") == true, "\(unreadable.map { "\($0)" } ?? "")")
        // Bytes that are not the ledger's, and a value of another type, the same way, naming the column.
        for (column, value) in [("documents", "x'01ff'"), ("documents", "42"), ("good_documents", "x'00'")] {
            try DatabaseQueue(path: url.path).write { db in
                try db.execute(sql: "UPDATE partition SET documents = '[]', good_documents = NULL")
                try db.execute(sql: "UPDATE partition SET \(column) = \(value)")
            }
            let damaged = #expect(throws: Failure.self) { try StateLedger(url: url).states(source: "menus") }
            #expect(damaged?.code == .damagedLedger, "\(column) = \(value)")
            #expect(damaged?.message.contains("whose \(column) are not") == true, "\(damaged.map { "\($0)" } ?? "")")
        }
    }

    /// A ledger of an earlier version holds each partition's documents as JSON text: it is read
    /// as it was, and the partition, recorded again, is kept as bytes and reads the same.
    @Test func documentsAnEarlierVersionWroteAsJSONAreStillRead() throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("ledger.sqlite")
        let documents = [
            SourceDocument(url: "https://example.org/a", fetchedAt: "2026-10-10T02:00:00Z", status: 200,
                           sha256: String(repeating: "a", count: 64), charset: "utf-8", byteCount: 3),
            SourceDocument(url: "https://example.org/b", fetchedAt: "2026-10-10T02:00:01Z", status: 404,
                           sha256: String(repeating: "b", count: 64), charset: nil, byteCount: 0),
        ]
        let good = LastGood(documents: [documents[0]], runId: "r0", summary: nil)
        let state = PartitionState(source: "menus", key: "2026-10-10", status: .done, documents: documents,
                                   runId: "r1", updatedAt: "t", revalidate: ["https://example.org/a"], lastGood: good)
        do {
            let ledger = try StateLedger(url: url)
            try ledger.record(state)
        }
        // As the earlier version wrote it: the JSON text of each list, in the same row.
        let encoder = JSONEncoder()
        try DatabaseQueue(path: url.path).write { db in
            #expect(try String.fetchOne(db, sql: "SELECT typeof(documents) FROM partition") == "blob")
            try db.execute(sql: "UPDATE partition SET documents = ?, good_documents = ?", arguments: [
                String(decoding: try encoder.encode(documents), as: UTF8.self),
                String(decoding: try encoder.encode(good.documents), as: UTF8.self),
            ])
        }
        let ledger = try StateLedger(url: url)
        #expect(try ledger.states(source: "menus")["2026-10-10"] == state)
        try ledger.record(state)
        #expect(try DatabaseQueue(path: url.path).read { db in
            try String.fetchAll(db, sql: "SELECT typeof(documents) || ' ' || typeof(good_documents) FROM partition")
        } == ["blob blob"])
        #expect(try ledger.states(source: "menus")["2026-10-10"] == state)
    }
}

/// The last good version of each partition, kept beside its newest fetch.
@Suite struct LastGoodLedgerTests {
    private func document(_ letter: Character, at time: String) -> SourceDocument {
        SourceDocument(url: "https://example.org/\(letter)", fetchedAt: time, status: 200,
                       sha256: String(repeating: letter, count: 64), charset: "utf-8", byteCount: 1)
    }

    @Test func aRefusedFetchKeepsTheLastGoodVersionBesideIt() throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let ledger = try StateLedger(url: folder.appendingPathComponent("ledger.sqlite"))
        var summary = PartitionSummary()
        summary.menuItems = 40
        summary.itemsByMeal = ["Lunch": 25, "Dinner": 15]
        let good = LastGood(documents: [document("a", at: "2026-10-10T02:00:00Z"),
                                        document("b", at: "2026-10-10T02:00:05Z")], runId: "r1", summary: summary)
        try ledger.record(PartitionState(source: "menus", key: "2026-10-11", status: .done, documents: good.documents,
                                         runId: "r1", updatedAt: "t1", lastGood: good))
        try ledger.record(PartitionState(source: "menus", key: "2026-10-12", status: .failed,
                                         documents: [document("c", at: "2026-10-11T02:00:00Z")], runId: "r2",
                                         updatedAt: "t2", message: "refused: Lunch has 0 menu item(s)", lastGood: good))
        try ledger.record(PartitionState(source: "menus", key: "2026-10-13", status: .failed, documents: [],
                                         runId: "r2", updatedAt: "t2", message: "HTTP 500"))

        let refused = try #require(try ledger.states(source: "menus")["2026-10-12"])
        #expect(refused.status == .failed)
        #expect(refused.documents.map(\.url) == ["https://example.org/c"])
        #expect(refused.lastGood == good)
        // The newest of its documents.
        #expect(refused.lastGood?.fetchedAt == "2026-10-10T02:00:05Z")
        // Days with a good version are the ones history can keep; one never good is not.
        #expect(try ledger.keptKeys(source: "menus") == ["2026-10-11", "2026-10-12"])
        #expect(try ledger.goodSummaries(source: "menus", limit: 1) == [summary])
        #expect(try ledger.goodSummaries(source: "menus", limit: 5).count == 2)
        #expect(try ledger.goodSummaries(source: "other", limit: 5).isEmpty)
    }
}

/// The last good summary, kept as bytes (`PartitionSummaryBytes`): a night reads one for every
/// partition it holds.
@Suite struct LedgerSummaryTests {
    /// Every figure set, each to a value of its own, so that a field dropped or read into another
    /// is seen.
    private static var summary: PartitionSummary {
        var summary = PartitionSummary()
        summary.menuItems = 41
        summary.itemsByMeal = ["Lunch": 25, "Dinner": 15, "Brunch": 1]
        summary.itemsWithCodes = 33
        summary.recipes = 7
        summary.mealsByRestaurant = ["De Neve": ["Dinner", "Lunch"], "Bruin Plate": ["Brunch"]]
        summary.itemsInUnnamedSections = 3
        summary.itemsNamedByID = 2
        summary.labels = 19
        summary.zeroedLabels = 4
        return summary
    }

    private static let document = SourceDocument(url: "https://example.org/a", fetchedAt: "2026-10-10T02:00:00Z",
                                                  status: 200, sha256: String(repeating: "a", count: 64),
                                                  charset: "utf-8", byteCount: 3)

    private static func state(summary: PartitionSummary?) -> PartitionState {
        PartitionState(source: "menus", key: "2026-10-10", status: .done, documents: [document], runId: "r1",
                       updatedAt: "t", lastGood: LastGood(documents: [document], runId: "r1", summary: summary))
    }

    @Test func aSummaryIsKeptAsBytesAndReadBackWhole() throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("ledger.sqlite")
        try StateLedger(url: url).record(Self.state(summary: Self.summary))
        #expect(try DatabaseQueue(path: url.path).read { db in
            try String.fetchOne(db, sql: "SELECT typeof(good_summary) FROM partition")
        } == "blob")
        let ledger = try StateLedger(url: url)
        #expect(try ledger.states(source: "menus")["2026-10-10"]?.lastGood?.summary == Self.summary)
        #expect(try ledger.goodSummaries(source: "menus", limit: 5) == [Self.summary])
    }

    /// A ledger of an earlier version holds the summary as JSON text: read as it was, and kept
    /// as bytes once the partition is recorded again.
    @Test func aSummaryAnEarlierVersionWroteAsJSONIsStillRead() throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("ledger.sqlite")
        try StateLedger(url: url).record(Self.state(summary: Self.summary))
        // As the earlier version wrote it, with a figure it did not count yet (read as 0).
        try DatabaseQueue(path: url.path).write { db in
            try db.execute(sql: "UPDATE partition SET good_summary = ?", arguments: [
                #"{"menuItems": 41, "itemsByMeal": {"Lunch": 25, "Dinner": 15, "Brunch": 1}, "itemsWithCodes": 33, "#
                    + #""recipes": 7, "mealsByRestaurant": {"De Neve": ["Dinner", "Lunch"], "Bruin Plate": ["Brunch"]}, "#
                    + #""itemsInUnnamedSections": 3, "itemsNamedByID": 2, "labels": 19}"#,
            ])
        }
        var expected = Self.summary
        expected.zeroedLabels = 0
        let ledger = try StateLedger(url: url)
        let state = try #require(try ledger.states(source: "menus")["2026-10-10"])
        #expect(state.lastGood?.summary == expected)
        #expect(try ledger.goodSummaries(source: "menus", limit: 5) == [expected])
        try ledger.record(state)
        #expect(try DatabaseQueue(path: url.path).read { db in
            try String.fetchOne(db, sql: "SELECT typeof(good_summary) FROM partition")
        } == "blob")
        #expect(try ledger.states(source: "menus")["2026-10-10"]?.lastGood?.summary == expected)
    }

    /// A summary that reads as neither bytes nor JSON is as none: the partition is still read,
    /// and its next fetch is judged as before it had last good figures.
    @Test func aSummaryThatDoesNotReadIsAsNone() throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("ledger.sqlite")
        let full = PartitionSummaryBytes.encode(Self.summary)
        let values: [any DatabaseValueConvertible & Sendable] = [full.dropLast(), full + Data([0]),
                                                                 "{\"menuItems\": \"many\"}", 42]
        for value in values {
            try StateLedger(url: url).record(Self.state(summary: Self.summary))
            try DatabaseQueue(path: url.path).write { db in
                try db.execute(sql: "UPDATE partition SET good_summary = ?", arguments: [value])
            }
            let state = try #require(try StateLedger(url: url).states(source: "menus")["2026-10-10"], "\(value)")
            #expect(state.lastGood?.documents == [Self.document])
            #expect(state.lastGood?.summary == nil, "\(value)")
        }
    }

    /// One summary gives the same bytes whatever order its maps were filled in; a key twice is
    /// damage, not a figure overwritten.
    @Test func theBytesAreOneForOneSummaryAndAKeyTwiceIsRefused() throws {
        var reordered = PartitionSummary()
        for (meal, items) in [("Brunch", 1), ("Dinner", 15), ("Lunch", 25)] { reordered.itemsByMeal[meal] = items }
        var original = PartitionSummary()
        for (meal, items) in [("Lunch", 25), ("Brunch", 1), ("Dinner", 15)] { original.itemsByMeal[meal] = items }
        #expect(PartitionSummaryBytes.encode(reordered) == PartitionSummaryBytes.encode(original))

        var writer = FieldWriter()
        writer.put(5)
        writer.put(2)
        for _ in 0..<2 {
            writer.put("Lunch")
            writer.put(5)
        }
        for _ in 0..<2 { writer.put(0) }
        writer.put(0)
        for _ in 0..<4 { writer.put(0) }
        #expect(throws: Failure.self) { try PartitionSummaryBytes.decode(Data(writer.bytes)) }
        var once = FieldWriter()
        once.put(5)
        once.put(1)
        once.put("Lunch")
        once.put(5)
        for _ in 0..<2 { once.put(0) }
        once.put(0)
        for _ in 0..<4 { once.put(0) }
        var lunch = PartitionSummary()
        lunch.menuItems = 5
        lunch.itemsByMeal = ["Lunch": 5]
        #expect(try PartitionSummaryBytes.decode(Data(once.bytes)) == lunch)
    }
}
