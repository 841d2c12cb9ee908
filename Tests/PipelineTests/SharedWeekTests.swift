import Basics
import Fetching
import FoodModel
import Foundation
@testable import Pipeline
import SourceAdapters
import TestSupport
import Testing

/// One week answer serves each of its days (Nutrislice): a run fetches and decodes it once and
/// shares it among the week's partitions. A day `history:` keeps replays the week as it was
/// stored; a day of tonight's window reads it as the site answers now. Each must get its own
/// bytes, whichever asks first: shared by address alone, a kept day handed its old week to
/// tonight's days (the Tofu of 2025-08-18 below kept its old name).
@Suite struct SharedWeekTests {
    static let tofu = FoodID(source: "nutrislice", recipeId: "1309638")

    @Test func aKeptDayAndTonightsDayOfOneWeekEachReadTheirOwnBytes() async throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let site = folder.appendingPathComponent("site")
        let path = NutrisliceWeeks.path(school: "four-lakes-market", menuType: "lunch")
        let page = site.appendingPathComponent(String(path.dropFirst()))
        try FileManager.default.createDirectory(at: page.deletingLastPathComponent(), withIntermediateDirectories: true)
        // The real lunch week serves the Tofu on 2025-08-17, -18 and -21 (read off the file).
        // Tonight the site renames it on the 18th.
        var tonight = try NutrisliceWeeks.answer("lunch")
        try NutrisliceWeeks.editFood(1309638, on: "2025-08-18", in: &tonight) { food in
            food["name"] = "Tofu, renamed tonight"
        }
        let tonightsBytes = try NutrisliceWeeks.data(tonight)
        try tonightsBytes.write(to: page)

        let source = SourceSpec(
            name: "four-lakes", adapter: NutrisliceAdapter(), location: .directory(site),
            dates: .range(from: ServiceDate("2025-08-18")!, to: ServiceDate("2025-08-19")!),
            settings: NutrisliceAdapter.Settings(school: "four-lakes-market", menuTypes: ["lunch"],
                                                 restaurant: "Four Lakes Market"))
        let setup = HarvestSetup(dates: nil, today: ServiceDate("2025-08-18")!)
        let harvester = try source.adapter.harvester(for: source, run: setup)
        let url = setup.base(of: source) + path

        // The week as an earlier night stored it, which the kept day 2025-08-17 last read.
        let store = RawStore(root: folder.appendingPathComponent("raw"))
        let storedBytes = try SharedData.load(NutrisliceWeeks.file("lunch"))
        let stored = try store.store(FetchedDocument(url: url, status: 200, headers: [:], body: storedBytes, charset: nil,
                                                     sha256: sha256Hex(storedBytes), fetchedAt: Date()))
        try store.commitPending()
        let live = DirectorySource(root: URL(fileURLWithPath: "/"), confinedTo: [site])
        let replay = PartitionReplay(store: store, documents: [url: SourceDocument(
            url: url, fetchedAt: "2025-08-17T03:00:00Z", status: 200, sha256: stored.sha256, charset: nil,
            byteCount: storedBytes.count)], fallback: live)

        let run = RunContext(scratch: folder.appendingPathComponent("scratch"))
        // The kept day asks first, as it does in a run (days in date order).
        let keptLog = DocumentLog(upstream: replay, known: nil, clock: .system, upstreamAsks: false)
        let kept = try await harvester.harvest(partition: "2025-08-17", from: keptLog, run: run)
        let tonightsLog = DocumentLog(upstream: live, known: nil, clock: .system)
        let fresh = try await harvester.harvest(partition: "2025-08-18", from: tonightsLog, run: run)

        #expect(await keptLog.documents.map(\.sha256) == [sha256Hex(storedBytes)])
        #expect(kept.dataset.foods[Self.tofu]?.name == "Tofu")
        #expect(await tonightsLog.documents.map(\.sha256) == [sha256Hex(tonightsBytes)])
        #expect(fresh.dataset.foods[Self.tofu]?.name == "Tofu, renamed tonight")
        #expect(fresh.dataset.serviceDays.first?.date == ServiceDate("2025-08-18"))
    }
}
