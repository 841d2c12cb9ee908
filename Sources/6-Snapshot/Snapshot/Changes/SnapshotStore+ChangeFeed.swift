import Basics
import FoodModel
import Foundation

/// The client's side of the change feed: where it last synced, and what it is told.
public enum SyncPoint: Hashable, Sendable {
    /// The run id of the snapshot the client holds.
    case run(String)
    /// The day it last synced: it holds the newest snapshot built on or before it.
    case date(String)

    /// `2025-04-09` is a date, `1941185400f` (lower-case letters and digits, as run ids are) a
    /// run id; nil for anything else, a day that does not exist (`2026-02-30`) or an empty text
    /// included: a typo must not read as a client to send everything again.
    public init?(_ text: String) {
        if text.wholeMatch(of: /[0-9]{4}-[0-9]{2}-[0-9]{2}/) != nil {
            guard ServiceDate(text) != nil else { return nil }
            self = .date(text)
        } else if !text.isEmpty, text.unicodeScalars.allSatisfy({ ("a"..."z").contains($0) || ("0"..."9").contains($0) }) {
            self = .run(text)
        } else {
            return nil
        }
    }

    func holds(_ snapshot: SnapshotFileName) -> Bool {
        switch self {
        case .run(let runId): snapshot.runId == runId
        case .date(let date): snapshot.date <= date
        }
    }
}

/// What `commissary changes --since` answers.
public enum ChangeFeedAnswer: Sendable {
    /// One change set from the client's snapshot to `latest` (empty when it is `latest`).
    case changes(ChangeSet)
    /// No chain of change files leads from the client's snapshot to `latest`: why, in one line.
    case resync(String)
}

extension SnapshotStore {
    /// Beside each published snapshot, gzipped, the change set from the snapshot `latest`
    /// pointed at before it (`commissary changes --format json`'s form).
    public static let changesSuffix = ".changes.json.gz"

    /// Writes `changes` beside the snapshot it leads to, read-only, through a hidden partial
    /// file renamed into place, so no reader ever finds half of one.
    public func writeChanges(_ changes: ChangeSet, beside snapshot: URL) throws {
        let name = snapshot.lastPathComponent + Self.changesSuffix
        let file = try writeBeside(snapshot, suffix: Self.changesSuffix,
                                   try Gzip.compress(Data(changes.json().utf8), place: name))
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: file.path)
    }

    /// The change files from the snapshot `since` names to `latest`, walked back from `latest`
    /// (each file names the snapshot it starts from, which may be gone already), composed into
    /// one change set; or why the client must download `latest` whole: a file missing (the
    /// first night, retention pruned it, or it could not be written) or a schema change.
    public func changes(pipeline: String, since: SyncPoint) throws -> ChangeFeedAnswer {
        guard let latest = latest(pipeline: pipeline), var current = SnapshotFileName(latest.lastPathComponent, pipeline: pipeline) else {
            throw Failure(.snapshot, "no snapshot of pipeline \(pipeline) is published here", at: directory.path)
        }
        let wanted = switch since {
        case .run(let runId): "run \(runId)"
        case .date(let date): "a snapshot built on or before \(date)"
        }
        var chain: [(file: URL, changes: ChangeSet)] = []
        // The files a walk has passed: a chain that comes back to one is damaged. Names do not
        // order the chain: a run `--as-of` an earlier day is named by that day, yet follows the
        // snapshot `latest` pointed at before it.
        var walked: Set<String> = [current.fileName]
        while !since.holds(current) {
            let file = directory.appendingPathComponent(current.fileName + Self.changesSuffix)
            guard FileManager.default.fileExists(atPath: file.path) else {
                return .resync("no change file beside \(current.fileName): no chain leads from \(wanted) to "
                               + "\(latest.lastPathComponent); download it whole")
            }
            let changes = try ChangeSet(contentsOf: file)
            guard changes.new.snapshot == current.fileName, let older = SnapshotFileName(changes.old.snapshot, pipeline: pipeline),
                  walked.insert(older.fileName).inserted else {
                throw Failure(.damagedBytes, "is not the change set to \(current.fileName)", at: file.path)
            }
            chain.insert((file, changes), at: 0)
            current = older
        }
        guard !chain.isEmpty else { return .changes(try ChangeSet.between(latest, latest)) }
        let tables = try ChangeSet.Tables(of: latest)
        // A chain of row changes only keeps latest's schema, so each of its files must name
        // latest's tables, columns and keys; a chain that changes the schema resyncs below.
        if chain.allSatisfy(\.changes.changesRowsOnly) {
            for link in chain {
                try link.changes.validate(against: tables, snapshot: latest.lastPathComponent, place: link.file.path)
            }
        }
        do {
            return .changes(try ChangeSet.composed(chain.map(\.changes), tableOrder: tables.order))
        } catch let failure as Failure {
            return .resync("\(failure.message): no chain of row changes leads from \(wanted) to \(latest.lastPathComponent); "
                           + "download it whole")
        }
    }

    /// The change set written beside `snapshot`; nil when there is no change file.
    public static func changes(beside snapshot: URL) throws -> ChangeSet? {
        let file = URL(fileURLWithPath: snapshot.path + changesSuffix)
        guard FileManager.default.fileExists(atPath: file.path) else { return nil }
        return try ChangeSet(contentsOf: file)
    }
}
