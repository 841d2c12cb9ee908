import Foundation

/// The folders a pipeline writes to, under one root (the current folder by default):
/// `snapshots/` (published, read by others), `raw/` (every fetched body, content-addressed),
/// `state/` (ledger, locks, manifests of runs that did not publish), `staging/` (scratch),
/// `cache/` (parsed partitions, which only save time: deleting it loses nothing).
public struct Workspace: Hashable, Sendable {
    public let root: URL

    public init(root: URL) {
        self.root = root.standardizedFileURL
    }

    public var snapshots: URL { root.appendingPathComponent("snapshots") }
    public var raw: URL { root.appendingPathComponent("raw") }
    public var state: URL { root.appendingPathComponent("state") }
    public var staging: URL { root.appendingPathComponent("staging") }

    public func ledger(pipeline: String) -> URL { state.appendingPathComponent("\(pipeline).ledger.sqlite") }
    public func lock(pipeline: String) -> URL { state.appendingPathComponent("\(pipeline).lock") }
    public func runManifests(pipeline: String) -> URL { state.appendingPathComponent("runs/\(pipeline)") }
    /// The manifest of a run that published nothing (a blocking check, unchanged inputs).
    public func unpublishedManifest(pipeline: String, runId: String) -> URL {
        runManifests(pipeline: pipeline).appendingPathComponent("\(runId).manifest.json")
    }
    /// What the pipeline's partitions parsed, kept between runs (`ParseCache`).
    public func parseCache(pipeline: String) -> URL { root.appendingPathComponent("cache/\(pipeline)") }
    /// The report page's counts of each day's items (`ServedDayCounts`), kept for the next night
    /// beside the parse cache's entries.
    public func reportDayCounts(pipeline: String) -> URL {
        parseCache(pipeline: pipeline).appendingPathComponent("report-days.sqlite")
    }
}

extension Workspace {
    /// Removes what killed runs of `pipeline` left in `staging/`. Called under the pipeline's
    /// lock, so no run of it is using them; other pipelines' files are not touched.
    public func removeStagingLeftovers(pipeline: String) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: staging.path)) ?? []
        let own = #/^(?<pipeline>.+)-\d{4}-\d{2}-\d{2}-[0-9a-z]+\.sqlite(-journal|-wal|-shm|-scratch-.+)?$/#
        for name in names where name.wholeMatch(of: own).map({ String($0.output.pipeline) }) == pipeline {
            try? FileManager.default.removeItem(at: staging.appendingPathComponent(name))
        }
    }
}
