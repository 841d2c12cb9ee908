import Foundation

/// The folders a pipeline writes to, under one root (the current folder by default):
/// `snapshots/` (published, read by others), `raw/` (every fetched body, content-addressed),
/// `state/` (ledger, locks, manifests of runs that did not publish), `staging/` (scratch).
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
}
