import Basics
import Foundation
import Logging
import Pipeline
import Snapshot
import Testing
import TestSupport

/// A reader that queries `latest` in a loop, on its own thread, while runs publish one snapshot
/// after another into the same folder: every read must succeed and see a whole snapshot (the
/// sample's 124 menu items and a run id in `_meta` that names the file it read).
@Suite struct ReadersDuringPublishTests {
    /// What the reader saw, shared with the thread that reads.
    final class Tally: @unchecked Sendable {
        let lock = NSLock()
        var reads = 0
        var errors: [String] = []
        var files: Set<String> = []
        var stop = false
    }

    static let publishes = 12

    @Test func aReaderOfLatestNeverSeesAnErrorOrAHalfWrittenSnapshot() async throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let pipeline = folder.appendingPathComponent("readers.yml")
        try Data("""
            pipeline: readers
            sources:
              - name: ucla-menu
                adapter: ucla-menu-site
                location: \(Paths.sampleSite.path)
                dates: {from: 2026-10-10, to: 2026-10-12}
            """.utf8).write(to: pipeline)
        let spec = try SpecReader.read(pipeline)
        #expect(try await runPipeline(spec, workspace: folder).published)
        let store = SnapshotStore(directory: folder.appendingPathComponent("snapshots"))

        let tally = Tally()
        let (readerFinished, finishing) = AsyncStream<Never>.makeStream()
        let reader = Thread {
            defer { finishing.finish() }
            while !tally.lock.withLock({ tally.stop }) {
                do {
                    guard let latest = store.latest(pipeline: "readers") else {
                        throw Failure(.snapshot, "latest is missing", at: store.directory.path)
                    }
                    let items = try QueryResult.run("SELECT count(*) FROM menu_item", on: latest)
                    let runId = try SnapshotReader.meta(of: latest)["run_id"] ?? ""
                    guard items.rows == [[.integer(124)]], !runId.isEmpty,
                          latest.lastPathComponent.hasSuffix("-\(runId).sqlite")
                    else {
                        throw Failure(.snapshot, "half-written: \(items.rows), run \(runId)", at: latest.path)
                    }
                    tally.lock.withLock {
                        tally.reads += 1
                        tally.files.insert(latest.lastPathComponent)
                    }
                } catch {
                    tally.lock.withLock { tally.errors.append("\(error)") }
                }
            }
        }
        reader.start()
        for _ in 0..<Self.publishes {
            #expect(try await runPipeline(spec, workspace: folder, force: true).published)
        }
        tally.lock.withLock { tally.stop = true }
        for await _ in readerFinished {}

        let (reads, errors, files) = tally.lock.withLock { (tally.reads, tally.errors, tally.files) }
        #expect(errors.isEmpty, "\(errors.prefix(3))")
        #expect(reads > Self.publishes)
        // The reader followed `latest` from file to file as they were published.
        #expect(files.count > 1)
        print("ReadersDuringPublishTests: \(reads) reads across \(files.count) snapshots during \(Self.publishes) publishes")
    }
}
