import FoodModel
import Foundation
import Snapshot
import Testing
import TestSupport

/// `run --as-of D`: D is today for the pipeline's relative dates and names the snapshot, whatever
/// day the machine says it is.
@Suite struct AsOfTests {
    /// The sample's pages hold 2026-10-10 to -12: with `days_ahead: 2` counted from
    /// 2026-10-10 the run selects exactly those three days and publishes all 124 menu items
    /// (SampleData/README.md), in a snapshot named and dated 2026-10-10.
    @Test func daysAheadCountFromTheAsOfDayWhichNamesTheSnapshot() async throws {
        let workspace = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: workspace) }
        let (spec, _) = try SampleCopy.make(in: workspace)
        let text = try String(contentsOf: spec, encoding: .utf8)
        let relative = text.replacingOccurrences(of: "    dates:\n      from: 2026-10-10\n      to: 2026-10-12\n",
                                                 with: "    dates:\n      days_ahead: 2\n")
        #expect(relative != text)
        try Data(relative.utf8).write(to: spec)
        let asOf = try #require(ServiceDate("2026-10-10"))
        let run = try await CommissaryProcess.run(["run", spec.path, "--workspace", workspace.path,
                                                   "--as-of", "\(asOf)", "--log-format", "json"])
        #expect(run.status == 0, "\(run.error)")
        let snapshot = try #require(SnapshotStore(directory: workspace.appendingPathComponent("snapshots"))
            .latest(pipeline: "sample"))
        #expect(snapshot.lastPathComponent.hasPrefix("sample-2026-10-10-"), "\(snapshot.lastPathComponent)")
        let days = try QueryResult.run("SELECT date FROM service_day ORDER BY date", on: snapshot).rows
        #expect(days == (0...2).map { [.text("\(ServiceDate(daysSinceEpoch: asOf.daysSinceEpoch + $0))")] })
        #expect(try QueryResult.run("SELECT count(*) FROM menu_item", on: snapshot).rows == [[.integer(124)]])
        let manifest = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: snapshot.path + ".manifest.json")))
            as? [String: Any]
        #expect(manifest?["today"] as? String == "2026-10-10")

        // A day later, the window moves with it: 2026-10-13 has no page in the sample.
        let later = try await CommissaryProcess.run(["run", spec.path, "--workspace", workspace.path,
                                                     "--as-of", "2026-10-11", "--dry-run", "--log-format", "text"])
        #expect(later.status == 0, "\(later.error)")
        #expect(later.output.contains("today 2026-10-11"), "\(later.output)")
        #expect(later.output.contains("ucla-menu/2026-10-13"), "\(later.output)")
        #expect(!later.output.contains("ucla-menu/2026-10-10"), "\(later.output)")
    }
}
