import Basics
import Fetching
import Foundation
import Pipeline
import SourceAdapters

/// The run's fetch path on its own: every document a menu run read, asked in the run's order
/// through the `DocumentLog`, `StoringSource` and `DirectorySource` the run fetches through, into
/// a new raw store committed once per day's share of documents (the run commits before each
/// partition reaches the ledger), on one task with nothing beside it; and, in the same process
/// just before, reading the same files (its floor), reading and hashing them, and reading,
/// hashing and appending them to one file (the least a store keeping every body under its hash
/// does).
///
/// In a run, partitions fetch and parse side by side on every core, and the fetch stage's time
/// is summed over them: it also holds the time a fetch waited for a core that a parse, the
/// write of finished days or another partition's fetch held. This is what a document's fetch
/// costs itself, measured as its floor is.
enum FetchAlone {
    static func measure(manifest: URL, corpus: URL, days: Int, scratch: URL) async throws -> Measurement {
        let urls = try UserJSON.decoder().decode(RunManifest.self, from: Data(contentsOf: manifest)).inputs.map(\.url)
        // The directory source serves `/Menus/2017-01-01` from `Menus/2017-01-01.html`; found
        // before the floor is timed, as the parse floor does.
        let files = urls.map { url in
            let path = String(url.dropFirst("file://".count))
            return FileManager.default.fileExists(atPath: path) ? path : path + ".html"
        }
        var started = now()
        var bytes = 0
        for file in files {
            bytes += try Data(contentsOf: URL(fileURLWithPath: file)).count
        }
        let floorSeconds = now() - started
        let hashSeconds = try hashingFloor(files)
        let keepSeconds = try keepingFloor(files, into: scratch)

        let raw = scratch.appendingPathComponent("fetch-alone-raw")
        try? FileManager.default.removeItem(at: raw)
        defer { try? FileManager.default.removeItem(at: raw) }
        let store = RawStore(root: raw)
        let folder = DirectorySource(root: URL(fileURLWithPath: "/"), confinedTo: [corpus])
        let log = DocumentLog(upstream: StoringSource(upstream: folder, store: store), known: nil, clock: .system)
        let perCommit = max(1, urls.count / max(days, 1))
        started = now()
        for (number, url) in urls.enumerated() {
            _ = try await log.fetch(url)
            if (number + 1) % perCommit == 0 { try store.commitPending() }
        }
        try store.commitPending()
        let seconds = now() - started
        return Measurement(seconds: seconds, cpuSeconds: ProcessResources.cpuSeconds(),
                           peakKB: ProcessResources.peakResidentKB() ?? 0, documents: urls.count, bytes: bytes,
                           readSeconds: floorSeconds, keepSeconds: keepSeconds, hashSeconds: hashSeconds)
    }

    /// Reading the files and hashing each (SHA-256), keeping nothing.
    private static func hashingFloor(_ files: [String]) throws -> Double {
        let started = now()
        for file in files {
            _ = sha256Hex(try Data(contentsOf: URL(fileURLWithPath: file)))
        }
        return now() - started
    }

    /// Reading the files, hashing each (SHA-256) and appending it to one file: the least any
    /// store that keeps every body under its hash does, whatever its index.
    private static func keepingFloor(_ files: [String], into scratch: URL) throws -> Double {
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        let target = scratch.appendingPathComponent("keeping-floor.pack")
        _ = FileManager.default.createFile(atPath: target.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: target) }
        let handle = try FileHandle(forWritingTo: target)
        let started = now()
        for file in files {
            let data = try Data(contentsOf: URL(fileURLWithPath: file))
            _ = sha256Hex(data)
            try handle.write(contentsOf: data)
        }
        let seconds = now() - started
        try handle.close()
        return seconds
    }
}
