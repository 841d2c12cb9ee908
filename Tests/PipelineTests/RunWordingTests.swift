import FoodModel
import Foundation
import Snapshot
import Testing
import TestSupport

/// What a run says about itself is short and true: a long failure names five partitions once,
/// a replayed partition's documents are all reused, and a check without a minimum says so.
@Suite struct RunWordingTests {
    private func sample(in workspace: URL, editing edit: (String) -> String = { $0 }) throws -> URL {
        let (spec, _) = try SampleCopy.make(in: workspace)
        let text = try String(contentsOf: spec, encoding: .utf8)
        try Data(edit(text).utf8).write(to: spec)
        return spec
    }

    /// Sixty days with no page in the sample's folder: each fails, and the last line names the
    /// first five with why, counts the rest and points at the manifest, which lists them all.
    @Test func sixtyFailedDaysAreNamedFiveAtATimeOnce() async throws {
        let workspace = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: workspace) }
        let from = try #require(ServiceDate("2026-11-01"))
        let to = try #require(ServiceDate("2026-12-30"))
        let spec = try sample(in: workspace) {
            $0.replacingOccurrences(of: "from: 2026-10-10\n      to: 2026-10-12", with: "from: \(from)\n      to: \(to)")
        }
        let run = try await CommissaryProcess.run(["run", spec.path, "--workspace", workspace.path, "--log-format", "text"])
        #expect(run.status == 3, "\(run.error)")
        let days = to.daysSinceEpoch - from.daysSinceEpoch + 1
        #expect(days == 60)
        let errors = run.error.split(separator: "\n").filter { $0.hasPrefix("error: ") }
        #expect(errors.count == 1)
        let line = String(errors.first ?? "")
        #expect(line.count < 2_000, "\(line.count) characters")
        for offset in 0..<5 {
            #expect(line.contains("\(ServiceDate(daysSinceEpoch: from.daysSinceEpoch + offset)) (ucla-menu: "), "\(line)")
        }
        #expect(!line.contains("\(ServiceDate(daysSinceEpoch: from.daysSinceEpoch + 5)) (ucla-menu: "), "\(line)")
        let more = "and \(days - 5) more: see the manifest \(workspace.path)/state/runs/sample/"
        #expect(line.contains(more), "\(line)")
        // Said once, on standard output and standard error together.
        #expect((run.output + run.error).components(separatedBy: "and \(days - 5) more").count == 2)
        let manifestPath = try #require(line.range(of: "see the manifest ").map { line[$0.upperBound...] }?
            .split(separator: " ").first.map { String($0).trimmingCharacters(in: CharacterSet(charactersIn: ";)")) })
        let manifest = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: manifestPath)))
            as? [String: Any])
        let partitions = try #require(manifest["partitions"] as? [[String: Any]])
        let failed = partitions.filter { $0["status"] as? String == "failed" }.compactMap { $0["key"] as? String }
        #expect(Set(failed) == Set((0..<days).map { "\(ServiceDate(daysSinceEpoch: from.daysSinceEpoch + $0))" }))
    }

    /// A partition replayed from the raw store (`--only-missing` after a run) sent no request:
    /// every one of its documents is counted as reused.
    @Test func aReplayedPartitionCountsEveryDocumentReused() async throws {
        let workspace = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: workspace) }
        let spec = try sample(in: workspace)
        let arguments = ["run", spec.path, "--workspace", workspace.path, "--log-format", "text"]
        #expect(try await CommissaryProcess.run(arguments).status == 0)
        let again = try await CommissaryProcess.run(arguments + ["--only-missing"])
        let replayed = again.error.split(separator: "\n").filter { $0.contains(": reused ") }
        #expect(!replayed.isEmpty, "\(again.error)")
        for line in replayed {
            let counts = Self.counts(in: String(line))
            #expect(counts["documents reused"] != nil && counts["documents reused"] == counts["documents"]
                    && counts["documents"] ?? 0 > 0, "\(line)")
        }
    }

    /// "27 documents, 27 documents reused" (singular for one) as numbers by what they count.
    private static func counts(in line: String) -> [String: Int] {
        let listed = line.components(separatedBy: ": reused ").last ?? ""
        var counts: [String: Int] = [:]
        for phrase in listed.components(separatedBy: ", ") {
            let words = phrase.split(separator: " ", maxSplits: 1).map(String.init)
            guard words.count == 2, let number = Int(words[0]) else { continue }
            let noun = words[1].replacingOccurrences(of: "document reused", with: "documents reused")
            counts[noun == "document" ? "documents" : noun] = number
        }
        return counts
    }

    /// The sample without `min_recipes`: the check reports the count and the key that sets a
    /// minimum, not "at least 0 required"; the 12 meals are counted in the dump itself.
    @Test func aCheckWithoutAMinimumSaysNoneIsSet() async throws {
        let workspace = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: workspace) }
        let spec = try sample(in: workspace) { $0.replacingOccurrences(of: "  min_recipes: 10\n", with: "") }
        let run = try await CommissaryProcess.run(["run", spec.path, "--workspace", workspace.path, "--quiet"])
        #expect(run.status == 0, "\(run.error)")
        let dump = try JSONSerialization.jsonObject(with: Data(contentsOf: Paths.sampleData
            .appendingPathComponent("themealdb/meals.json"))) as? [String: Any]
        let meals = (dump?["meals"] as? [Any])?.count ?? -1
        let snapshot = try #require(SnapshotStore(directory: workspace.appendingPathComponent("snapshots"))
            .latest(pipeline: "sample"))
        let checks = try SnapshotReader.checks(of: snapshot)
        #expect(checks.first { $0.name == "min_recipes" }?.message == "\(meals) recipes (no minimum set: checks.min_recipes)")
        #expect(checks.first { $0.name == "min_menu_items" }?.message.hasSuffix("(at least 100 required)") == true)
    }
}
