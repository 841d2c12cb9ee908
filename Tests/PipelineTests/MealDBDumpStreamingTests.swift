import Fetching
import FoodModel
import Foundation
import Snapshot
import SourceAdapters
import Testing
import TestSupport
@testable import Pipeline

/// A dump is read in pieces and set aside on disk as it is decoded (issue 20: a million recipes
/// in bounded memory); what is published is what a catalogue held in memory gives.
@Suite struct MealDBDumpStreamingTests {
    /// The real dump with its meals in reverse order and its third meal read again at the end.
    func reversedDump(in folder: URL) throws -> (file: URL, repeated: String) {
        let json = try JSONSerialization.jsonObject(with: try SharedData.load("themealdb/meals-dump-442.json"))
        let meals = try #require((json as? [String: Any])?["meals"] as? [[String: Any]])
        let repeated = try #require(meals[2]["idMeal"] as? String)
        let file = folder.appendingPathComponent("reversed.json")
        try JSONSerialization.data(withJSONObject: Array(meals.reversed()) + [meals[2]]).write(to: file)
        return (file, repeated)
    }

    func spec(dump: URL, in folder: URL) throws -> PipelineSpec {
        try SpecReader.parse("""
            pipeline: reversed
            licence: test
            sources:
              - name: meals
                adapter: mealdb-dump
                location: \(dump.lastPathComponent)
            checks: {min_recipes: 1}
            """, file: folder.appendingPathComponent("reversed.yml"))
    }

    @Test func aDumpInAnyOrderIsWrittenInIdOrderAndLeavesNoScratch() async throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (dump, repeated) = try reversedDump(in: folder)
        let report = try await BackfillFixtures.runner(try spec(dump: dump, in: folder), workspace: folder).run()
        let snapshot = URL(fileURLWithPath: try #require(report.snapshotPath))

        // The file lists 52764 … 53340 (442 meals, ascending); reversed, they must still be
        // written lowest id first, as a catalogue held in memory is.
        let ids = try QueryResult.run("SELECT source_id FROM recipe ORDER BY rowid", on: snapshot).rows
            .map { "\($0[0])" }
        #expect(ids.count == 442)
        #expect(ids.first?.contains("52764") == true)
        #expect(ids.last?.contains("53340") == true)
        #expect(ids == ids.sorted())
        // Read at position 440 (reversed) and again at 443: reported by the write, kept once.
        let warning = report.manifest.checks.first { $0.message.contains("idMeal(s) name more than one meal") }
        #expect(warning?.message == "\(dump.path): 1 idMeal(s) name more than one meal, the last of each kept: "
            + "\(repeated) (meals 440, 443)")
        let staging = folder.appendingPathComponent("staging")
        #expect(try FileManager.default.contentsOfDirectory(atPath: staging.path).isEmpty)
    }

    /// The real dump written to `folder`, read through a raw store there by a folder source, and
    /// the work of its one partition as the ledger recorded it with `recordedDigest`, recorded as
    /// 100 MB: a document the ledger knows to be too large to hold twice.
    private struct LargeDump {
        /// `sha256sum` of the real dump, computed outside the code under test.
        static let digest = "ae7972c1dc2316eb8295dfbf3f781f038cb50cb3eb17128885cd574a08ae3bba"
        let file: URL
        let bytes: Data
        let url: String
        let raw: RawStore
        let live: StoringSource
        let harvester: any Harvester

        init(in folder: URL) throws {
            file = folder.appendingPathComponent("dump.json")
            bytes = try SharedData.load("themealdb/meals-dump-442.json")
            try bytes.write(to: file)
            url = "file://" + file.path
            raw = RawStore(root: folder.appendingPathComponent("raw"))
            live = StoringSource(upstream: DirectorySource(root: URL(fileURLWithPath: "/"), confinedTo: [folder]), store: raw)
            let source = SourceSpec(name: "meals", adapter: MealDBDumpAdapter(), location: .file(file),
                                    settings: MealDBDumpAdapter.Settings())
            harvester = try MealDBDumpAdapter().harvester(
                for: source, run: HarvestSetup(dates: nil, today: try ServiceDate.required("2026-11-22")))
        }

        func work(recordedDigest: String = Self.digest) -> PartitionWork {
            let document = SourceDocument(url: url, fetchedAt: "2026-11-21T02:00:00Z", status: 200,
                                          sha256: recordedDigest, charset: nil, byteCount: 100 << 20)
            return PartitionWork(
                index: 0, harvester: harvester, live: live, key: "catalogue",
                previous: PartitionState(source: "meals", key: "catalogue", status: .done, documents: [document],
                                         runId: "earlier", updatedAt: "2026-11-21T02:00:00Z"),
                reused: false)
        }
    }

    @Test func aLargeDocumentIsRevalidatedByItsDigestAlone() async throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let dump = try LargeDump(in: folder)

        let (same, unchanged) = await Revalidate.revalidate(dump.work(), shared: SharedRevalidation([]))
        #expect(unchanged)
        #expect(same.confirmed)
        #expect(same.prefetched.isEmpty)
        let (other, otherUnchanged) = await Revalidate.revalidate(
            dump.work(recordedDigest: String(repeating: "0", count: 64)), shared: SharedRevalidation([]))
        #expect(!otherUnchanged)
        #expect(other.prefetched.isEmpty)
        // Compared past the raw store: nothing was written to learn it.
        #expect(try dump.raw.records(for: dump.url).isEmpty)
    }

    /// Once the dump has been read into the raw store after it stopped changing, a night takes
    /// it by its stamp (`FileStamp`) rather than reading its bytes to hash them (a 304, counted
    /// so); rewritten, it is compared by its digest again, and found changed.
    @Test func aLargeDocumentStillAsStoredIsComparedByItsStamp() async throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let dump = try LargeDump(in: folder)

        // Read through the store once the file has been still past the settling time, as the
        // night that parsed it would.
        try await Task.sleep(for: .seconds(5))
        #expect(try await dump.live.stream(dump.url, into: { _ in }).sha256 == LargeDump.digest)
        let (stamped, unchanged) = await Revalidate.revalidate(dump.work(), shared: SharedRevalidation([]))
        #expect(unchanged && stamped.confirmed)
        #expect(stamped.notModified == 1)

        try (dump.bytes + Data(" ".utf8)).write(to: dump.file)
        let (read, rewrittenUnchanged) = await Revalidate.revalidate(dump.work(), shared: SharedRevalidation([]))
        #expect(!rewrittenUnchanged)
        #expect(read.notModified == 0)
    }
}
