import Fetching
import FoodModel
import Foundation
import TestSupport
import Logging
import Pipeline
import Snapshot
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The SampleData menu site served over HTTP on 127.0.0.1, with a hook that replaces the answer
/// for chosen requests by a fault. Every other request gets the real page.
enum SampleSite {
    /// The sample's three days (SampleData/README.md): 124 menu items, 36 foods, 36 hours rows.
    static let from = ServiceDate("2026-10-10")!
    static let to = ServiceDate("2026-10-12")!
    static let menuItems = 124
    static let foods = 36

    static func page(_ path: String) -> Data? {
        try? Data(contentsOf: Paths.sampleSite.appendingPathComponent(path + ".html"))
    }

    /// `fault` gets the request and how many requests reached its path; nil serves the page.
    static func server(lifetime: Duration = .seconds(60),
                       fault: @escaping @Sendable (ReceivedRequest, Int) -> Reply? = { _, _ in nil })
        throws -> TestHTTPServer {
        try TestHTTPServer(lifetime: lifetime) { request, count in
            if let reply = fault(request, count) { return reply }
            guard let body = page(request.path) else { return Reply(status: 404) }
            return Reply(headers: [("Content-Type", "text/html; charset=utf-8")], body: body)
        }
    }

    /// The YAML of a pipeline that reads the site at `base`, with a fast fetch policy.
    static func pipelineYAML(name: String, base: String, checks: String = "min_menu_items: 30",
                             fetch: String = "timeout_seconds: 2\n  retries: 2\n  delay_ms: 0") -> String {
        """
        pipeline: \(name)
        sources:
          - name: ucla-menu
            adapter: ucla-menu-site
            location: \(base)
            dates: {from: \(from), to: \(to)}
        checks:
          \(checks)
        fetch:
          \(fetch)
        """
    }

    static func spec(name: String, base: String, in folder: URL, checks: String = "min_menu_items: 30",
                     fetch: String = "timeout_seconds: 2\n  retries: 2\n  delay_ms: 0") throws -> PipelineSpec {
        let file = folder.appendingPathComponent("\(name).yml")
        try Data(pipelineYAML(name: name, base: base, checks: checks, fetch: fetch).utf8).write(to: file)
        return try SpecReader.read(file)
    }
}

/// Runs a pipeline in process, the way `commissary run` does.
func runPipeline(_ spec: PipelineSpec, workspace: URL, force: Bool = false) async throws -> RunReport {
    try await PipelineRunner(
        spec: spec,
        options: RunOptions(workspace: Workspace(root: workspace), today: SampleSite.from, force: force),
        observer: SilentObserver(), logger: Logger(label: "reliability", factory: { _ in SwiftLogNoOpLogHandler() })).run()
}

/// Every file with a final name in `snapshots` is a sound snapshot; no hidden partial file is
/// left once a run has ended normally.
func expectSoundSnapshots(_ snapshots: URL, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: snapshots.path)) ?? []
    for name in names where name.hasSuffix(".sqlite") && !name.hasPrefix(".") {
        let problems = try SnapshotReader.open(snapshots.appendingPathComponent(name)).read { db in
            try SnapshotReader.verify(db)
        }
        #expect(problems.isEmpty, "\(name): \(problems)", sourceLocation: sourceLocation)
    }
}

/// A deterministic generator (SplitMix64), so that a failing fuzz or kill schedule reproduces
/// from its seed.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
