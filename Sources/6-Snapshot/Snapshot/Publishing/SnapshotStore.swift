import Basics
import Foundation
import GRDB
import Synchronization

/// One published snapshot file and the facts its name and `_meta` carry.
public struct PublishedSnapshot: Hashable, Sendable, Codable {
    public var path: String
    public var pipeline: String
    public var runId: String
    public var builtAt: String
    public var rowCounts: [String: Int]
    public var checks: [CheckOutcome]
    public var isLatest: Bool
    /// Why the file could not be read, when it could not (its counts and checks are then
    /// empty), or why it is not a published snapshot although it has a final name.
    public var problem: String?
    /// A file whose publication did not finish (`SnapshotStore.isUnfinished`): never published,
    /// removed by its pipeline's next run.
    public var unfinished: Bool
}

/// The snapshots folder: `<pipeline>-<YYYY-MM-DD>-<run>.sqlite` files that are never modified,
/// a `latest-<pipeline>` symbolic link, and a `<file>.manifest.json` beside each file.
///
/// Publishing follows docs/publishing.md so that a kill at any moment leaves the previous snapshot
/// and `latest` intact and no partial file under a final name: VACUUM INTO a hidden temporary
/// name, verify, fsync, rename, fsync the folder, then swing `latest`, then the manifest.
public struct SnapshotStore: Sendable {
    public let directory: URL

    public init(directory: URL) {
        self.directory = directory.standardizedFileURL
    }

    public static func fileName(pipeline: String, date: String, runId: String) -> String {
        "\(pipeline)-\(date)-\(runId).sqlite"
    }

    public func latestLink(pipeline: String) -> URL {
        directory.appendingPathComponent("latest-\(pipeline)")
    }

    /// The snapshot `latest-<pipeline>` points at, if any.
    public func latest(pipeline: String) -> URL? {
        let link = latestLink(pipeline: pipeline)
        guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: link.path) else {
            return nil
        }
        let url = directory.appendingPathComponent(target)
        return FileManager.default.fileExists(atPath: url.path) ? url : nil
    }

    /// What reads a new snapshot while it is verified: given the file under its partial name and
    /// the stop to ask between its steps (`publish`).
    public typealias Alongside = @Sendable (_ file: URL, _ stop: StopRequest) -> Void

    /// Publishes a staging database under `fileName`; returns the final path.
    /// The manifest is written last and may be absent if the process dies just before it.
    ///
    /// Each of `alongside` is given the new file, under its partial name, to read while the file
    /// is verified (`verifyDescribeAndSync`), each on a thread of its own: the verification reads
    /// the file on two cores and then waits on the disk, and what reads it besides (the run's
    /// report page and change file) takes the time it waits. The publication goes on whatever
    /// they found; what they read is worth nothing if the file fails verification. A stop asked
    /// for meanwhile (the task cancelled) is raised in the `StopRequest` each is given, which it
    /// asks between its steps; the verification finishes.
    @discardableResult
    public func publish(_ staging: StagingSnapshot, fileName: String, pipeline: String,
                        alongside: [Alongside] = []) throws -> URL {
        let final = try unusedFinalPath(fileName)
        let partial = directory.appendingPathComponent(".\(fileName).partial")
        try? FileManager.default.removeItem(at: partial)
        let keptTables = try moveOrVacuum(staging, into: partial)
        let metadataFile = try verifyAndSeal(partial, fileName: fileName, as: final, keptTables: keptTables,
                                             alongside: alongside)
        try moveIntoPlace(partial, fileName: fileName, as: final, metadataFile: metadataFile, pipeline: pipeline)
        try Durability.sync(path: directory.path)
        return final
    }

    /// Where `fileName` is published, once the snapshots folder exists; a name taken already is
    /// refused, since published files are never replaced.
    private func unusedFinalPath(_ fileName: String) throws -> URL {
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw Failure(.fileSystem, "cannot create the snapshots folder: \(SystemMessage.describe(error))",
                          at: directory.path, cause: error)
        }
        let final = directory.appendingPathComponent(fileName)
        guard !FileManager.default.fileExists(atPath: final.path) else {
            throw Failure(.snapshot, "a snapshot with this name exists already; published files are never replaced",
                          at: final.path)
        }
        return final
    }

    /// Puts the staging database at `partial`: moved there as it is unless too many of its pages
    /// are free (`StagingSnapshot.moveFinished`, which returns the tables whose rows it kept from
    /// the previous snapshot), else copied compacted (VACUUM INTO; no table kept). What fails
    /// leaves no partial file.
    private func moveOrVacuum(_ staging: StagingSnapshot, into partial: URL) throws -> Set<String> {
        do {
            if let kept = try staging.moveFinished(to: partial) { return kept }
            try staging.queue.vacuum(into: partial.path)
            return []
        } catch let error as Failure where error.code == .snapshot {
            throw error
        } catch {
            try? FileManager.default.removeItem(at: partial)
            throw Failure(.fileSystem, "cannot write the new snapshot (is the disk full or the folder read-only?): "
                          + plainMessage(error),
                          at: partial.path, cause: error)
        }
    }

    /// Verifies the partial copy (`keptTables` as `verifyDescribeAndSync` says), makes it
    /// read-only and writes its metadata beside `final`; returns the metadata file. A failure
    /// removes the partial copy.
    ///
    /// The metadata is in place before the snapshot takes its final name, so that no file
    /// under a final name lacks it (a disk that fills at the metadata used to leave a whole
    /// snapshot there, without it, never removed) and whoever follows `latest` finds it.
    private func verifyAndSeal(_ partial: URL, fileName: String, as final: URL, keptTables: Set<String>,
                               alongside: [Alongside]) throws -> URL {
        do {
            let metadata = try verifyDescribeAndSync(partial, fileName: fileName, keptTables: keptTables,
                                                     alongside: alongside)
            try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: partial.path)
            return try writeBeside(final, suffix: ".metadata.json", metadata)
        } catch {
            try? FileManager.default.removeItem(at: partial)
            throw Self.environmentFailure(error, path: final.path)
        }
    }

    /// Renames the partial copy to its final name and swings `latest-<pipeline>` to it.
    ///
    /// Until `latest` points at the new file, a failure takes it back out: nothing refers to
    /// it, and a file under a final name that `latest` never reached would be listed forever.
    private func moveIntoPlace(_ partial: URL, fileName: String, as final: URL, metadataFile: URL,
                               pipeline: String) throws {
        do {
            try Durability.rename(from: partial.path, to: final.path)
            try Durability.sync(path: directory.path)
            try pointLatest(pipeline: pipeline, at: fileName)
        } catch {
            for url in [partial, final, metadataFile] { try? FileManager.default.removeItem(at: url) }
            throw Self.environmentFailure(error, path: final.path)
        }
    }

    /// Points `latest-<pipeline>` at `fileName` through a new link renamed over the old one, so
    /// that a reader finds either the old target or the new one.
    private func pointLatest(pipeline: String, at fileName: String) throws {
        let newLink = directory.appendingPathComponent(".latest-\(pipeline).new")
        try? FileManager.default.removeItem(at: newLink)
        do {
            try Durability.symlink(named: newLink.path, to: fileName)
            try Durability.rename(from: newLink.path, to: latestLink(pipeline: pipeline).path)
        } catch {
            try? FileManager.default.removeItem(at: newLink)
            throw error
        }
    }

    /// A failure of the machine while publishing, as one line: SQLite's and the system's own
    /// errors keep their words (a full disk says so), anything else is already one of ours.
    private static func environmentFailure(_ error: any Error, path: String) -> any Error {
        if error is Failure { return error }
        return Failure(.fileSystem, "cannot publish the new snapshot: \(plainMessage(error))", at: path, cause: error)
    }

    /// Writes the run's manifest beside the snapshot it published, once the publication is done,
    /// so that the manifest records the publication too.
    public func writeManifest(_ manifest: Data, beside snapshot: URL) throws -> URL {
        try writeBeside(snapshot, suffix: ".manifest.json", manifest)
    }

    public static let reportSuffix = ".report.html"
    /// The folder of a snapshot's open feeds (`publish: feeds: true`), beside it.
    public static let feedsSuffix = ".feeds"

    /// Writes a snapshot's report page beside it (`<file>.report.html`), read-only.
    public func writeReport(_ page: String, beside snapshot: URL) throws {
        let page = try writeBeside(snapshot, suffix: Self.reportSuffix, Data(page.utf8))
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: page.path)
    }

    /// Writes `<file><suffix>` through a hidden partial file renamed into place. A write that
    /// fails (a disk that filled up) removes its partial file; one a kill interrupts is left for
    /// the next run's sweep.
    @discardableResult
    func writeBeside(_ snapshot: URL, suffix: String, _ data: Data) throws -> URL {
        let name = snapshot.lastPathComponent + suffix
        let final = directory.appendingPathComponent(name)
        let partial = directory.appendingPathComponent(".\(name).partial")
        do {
            try? FileManager.default.removeItem(at: partial)
            try Durability.writeNewFile(data, to: partial.path)
            try Durability.rename(from: partial.path, to: final.path)
            try Durability.sync(path: directory.path)
        } catch {
            try? FileManager.default.removeItem(at: partial)
            throw error
        }
        return final
    }

    /// Refuses the new file unless SQLite finds it sound, reads its Datasette metadata and syncs
    /// it to disk, side by side, since the two checks each read the whole file on one core while
    /// fsync waits on the disk; `alongside` read it meanwhile, each on a thread of its own. The
    /// first failure, in that order, is thrown.
    ///
    /// Every page of the file is checked, and every reference. Each index is checked against its
    /// rows in every table but the `keptTables`, which the night changed in place in a file whose
    /// indexes were checked whole when it was published; checking those again would cost the
    /// whole history every night (`SnapshotReader.integrityProblems(_:skippingIndexesOf:)`).
    private func verifyDescribeAndSync(_ url: URL, fileName: String, keptTables: Set<String>,
                                       alongside: [Alongside]) throws -> Data {
        let stop = StopRequest(raised: Task.isCancelled)
        let integrity = Mutex<[String]>([])
        let foreignKeys = Mutex<[String]>([])
        let metadata = Mutex(Data())
        let verification: [@Sendable () throws -> Void] = [
            {
                let found = try Self.reading(url, "cannot verify the new snapshot") { db in
                    try SnapshotReader.integrityProblems(db, skippingIndexesOf: keptTables)
                }
                integrity.withLock { $0 = found }
            },
            {
                let found = try Self.reading(url, "cannot verify the new snapshot", SnapshotReader.foreignKeyProblems)
                foreignKeys.withLock { $0 = found }
                let described = try Self.reading(url, "cannot describe the new snapshot") { db in
                    try SnapshotMetadata.read(db, fileName: fileName).encoded()
                }
                metadata.withLock { $0 = described }
            },
            { try Durability.sync(path: url.path) },
        ]
        let readers = alongside.map { read in { @Sendable in read(url, stop) } }
        try SideBySide.run(verification + readers, whileWaiting: { if Task.isCancelled { stop.raise() } })
        let problems = integrity.withLock { $0 } + foreignKeys.withLock { $0 }
        guard problems.isEmpty else {
            throw Failure(.snapshot, "the new snapshot failed verification: \(problems.prefix(3).joined(separator: "; "))",
                          at: url.path)
        }
        return metadata.withLock { $0 }
    }

    /// Reads the file at `url` on a read-only connection of its own; a failure says `what`.
    private static func reading<Value>(_ url: URL, _ what: String, _ read: (Database) throws -> Value) throws
        -> Value {
        var configuration = Configuration()
        configuration.readonly = true
        do {
            return try DatabaseQueue(path: url.path, configuration: configuration).read(read)
        } catch {
            throw Failure(.fileSystem, "\(what): \(plainMessage(error))", at: url.path, cause: error)
        }
    }

    /// Removes hidden partial files left by runs of `pipeline` that were killed mid-publish (of
    /// the snapshot or a file beside it, or of a night's page that published nothing, or a new
    /// `latest` link not yet renamed), side files whose snapshot is gone (a kill
    /// between the metadata and the rename), and unfinished snapshots (`isUnfinished`). Call
    /// only while holding the pipeline's run lock, so no live run's partial file is taken. The
    /// date after the name is matched too, so `sample` never takes `sample-menus`' files. SQLite's
    /// own `-journal` (or `-wal`, `-shm`) beside a partial file goes with it: VACUUM INTO
    /// writes one, and a kill mid-vacuum leaves it behind. Returns the unfinished snapshots
    /// removed, for the run to say so.
    @discardableResult
    public func removeLeftovers(pipeline: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        let ownPartial = #/^\.(?<pipeline>.+)-\d{4}-\d{2}-\d{2}-[0-9a-z]+\.sqlite((\.manifest\.json|\.metadata\.json|\.report\.html|\.changes\.json\.gz|\.feeds)?\.partial(-journal|-wal|-shm)?|\.feeds\.old)$/#
        // The page of a night that published nothing (`writeNotPublishedPage`), half written.
        let ownPagePartial = #/^\.(?<pipeline>.+)-[0-9a-z]+\.not-published\.html\.partial$/#
        let present = Set(names)
        let latestName = latest(pipeline: pipeline)?.lastPathComponent
        var unfinished: [String] = []
        // A folder without retention holds every night's files, five each: the patterns are
        // matched only against names that can fit them (a partial file is hidden), a side file
        // is a snapshot's name and a side file's ending, and files beside a snapshot are looked
        // up in the listing.
        for name in names {
            let hidden = name.hasPrefix(".")
            let isOwnPartial = hidden && (name.wholeMatch(of: ownPartial).map { $0.output.pipeline == pipeline }
                ?? name.wholeMatch(of: ownPagePartial).map { $0.output.pipeline == pipeline } ?? false)
            let isOrphanSideFile = Self.sideSuffixes.first(where: name.hasSuffix).map { suffix in
                let snapshot = String(name.dropLast(suffix.count))
                return SnapshotFileName(snapshot, pipeline: pipeline) != nil && !present.contains(snapshot)
            } ?? false
            let isUnfinishedSnapshot = SnapshotFileName(name, pipeline: pipeline) != nil
                && Self.isUnfinished(name, besideIt: { present.contains(name + $0) }, latest: latestName,
                                     builtAt: { builtAt(self.directory.appendingPathComponent($0)) })
            let isNewLink = name == ".latest-\(pipeline).new" || name == ".latest-\(pipeline)\(Self.reportSuffix).new"
            guard isOwnPartial || isOrphanSideFile || isUnfinishedSnapshot || isNewLink else {
                continue
            }
            if isUnfinishedSnapshot {
                // Its side files (its metadata, its page, if a run got that far) go with it.
                for suffix in Self.sideSuffixes where present.contains(name + suffix) {
                    try? FileManager.default.removeItem(at: directory.appendingPathComponent(name + suffix))
                }
                unfinished.append(name)
            }
            try? FileManager.default.removeItem(at: directory.appendingPathComponent(name))
        }
        return unfinished.sorted()
    }

    /// A snapshot file whose publication did not finish: `latest` does not point at it, no
    /// manifest lies beside it (a run writes that once `latest` points at its file), and either
    /// no metadata does either (a run of an earlier version that failed at its metadata, or
    /// retention killed between a file's side files and the file) or it was built after the
    /// file `latest` names (a run killed between giving the file its final name and pointing
    /// `latest` at it: readers were never sent to it, and counted as published it would make
    /// retention remove, in its place, a file they were sent to). A file built before the one
    /// `latest` names whose manifest is missing was published: its run was killed after pointing
    /// `latest` at it.
    public func isUnfinished(_ name: String, pipeline: String) -> Bool {
        let path = directory.appendingPathComponent(name).path
        return Self.isUnfinished(name, besideIt: { FileManager.default.fileExists(atPath: path + $0) },
                                 latest: latest(pipeline: pipeline)?.lastPathComponent,
                                 builtAt: { builtAt(self.directory.appendingPathComponent($0)) })
    }

    /// `isUnfinished`, told whether a file of a suffix lies beside the snapshot, which file
    /// `latest` names, and when a file was built (read only for a file with metadata and no
    /// manifest, of which a folder holds none but after a kill).
    private static func isUnfinished(_ name: String, besideIt: (String) -> Bool, latest: String?,
                                     builtAt: (String) -> String?) -> Bool {
        guard latest != name, !besideIt(".manifest.json") else { return false }
        guard besideIt(".metadata.json") else { return true }
        guard let latest, let latestBuilt = builtAt(latest), let built = builtAt(name) else { return false }
        return built > latestBuilt
    }

    /// When the snapshot at `url` was built (`_meta.built_at`); nil when it cannot be read.
    private func builtAt(_ url: URL) -> String? {
        (try? SnapshotReader.read(url, SnapshotReader.meta))?["built_at"]
    }

    /// What the files beside a snapshot end with (`removeLeftovers`' side files).
    private static let sideSuffixes = [".manifest.json", ".metadata.json", reportSuffix, changesSuffix, feedsSuffix]

    /// The snapshot of the same pipeline built last before `snapshot` (what its changes are
    /// counted from); nil when there is none or `snapshot` cannot be read.
    public func published(before snapshot: URL) -> URL? {
        func stamp(_ url: URL) -> (pipeline: String, builtAt: String)? {
            guard let meta = try? SnapshotReader.read(url, SnapshotReader.meta), let pipeline = meta["pipeline"],
                  let builtAt = meta["built_at"] else { return nil }
            return (pipeline, builtAt)
        }
        guard let own = stamp(snapshot) else { return nil }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasPrefix(own.pipeline + "-") && $0.hasSuffix(".sqlite") && $0 != snapshot.lastPathComponent }
            .map { directory.appendingPathComponent($0) }
            .compactMap { url in stamp(url).flatMap { $0.pipeline == own.pipeline && $0.builtAt < own.builtAt ? (url, $0.builtAt) : nil } }
            .max { ($0.1, $0.0.path) < ($1.1, $1.0.path) }?.0
    }

    static let unfinishedProblem = "its publication did not finish (latest never pointed at it, and no manifest lies "
        + "beside it): not a published snapshot; the next run of its pipeline removes it"

    /// Every published snapshot, oldest first, with counts and checks read from the file.
    public func list() throws -> [PublishedSnapshot] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        var snapshots: [PublishedSnapshot] = []
        for name in names.sorted() where name.hasSuffix(".sqlite") && !name.hasPrefix(".") {
            let url = directory.appendingPathComponent(name)
            // One read of each file: housekeeping, counts and checks together. A file that cannot
            // be read is listed with its problem rather than hiding every other snapshot.
            let read: (meta: [String: String], rowCounts: [String: Int], checks: [CheckOutcome])
            do {
                read = try SnapshotReader.read(url) { db in
                    (try SnapshotReader.meta(db), try SnapshotReader.rowCounts(db), try SnapshotReader.checks(db))
                }
            } catch {
                snapshots.append(PublishedSnapshot(path: url.path, pipeline: "", runId: "", builtAt: "", rowCounts: [:],
                                                   checks: [], isLatest: false, problem: "\(error)", unfinished: false))
                continue
            }
            let (meta, rowCounts, checks) = read
            let pipeline = meta["pipeline"] ?? ""
            let unfinished = isUnfinished(name, pipeline: pipeline)
            snapshots.append(PublishedSnapshot(
                path: url.path, pipeline: pipeline, runId: meta["run_id"] ?? "",
                builtAt: meta["built_at"] ?? "", rowCounts: rowCounts, checks: checks,
                isLatest: latest(pipeline: pipeline)?.lastPathComponent == name,
                problem: unfinished ? Self.unfinishedProblem : nil, unfinished: unfinished))
        }
        return snapshots.sorted { ($0.builtAt, $0.path) < ($1.builtAt, $1.path) }
    }
}
