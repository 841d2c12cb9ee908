import Basics
import FoodModel
import Foundation
@testable import Pipeline
import Snapshot
import Testing

/// The manifest's inputs are written directly (`RunManifest.json`); the file must be, byte for
/// byte, what the encoder writes of the whole manifest, whatever its strings hold.
@Suite struct ManifestJSONTests {
    private func manifest(inputs: [SourceDocument], message: String) -> RunManifest {
        RunManifest(
            pipeline: "ucla", pipelineFile: "/srv/pipelines/ucla.yml", runId: "2026-11-29-0400", codeVersion: "0.1.0",
            arguments: ["run", "ucla.yml"], startedAt: "2026-11-29T04:00:00Z", finishedAt: "2026-11-29T04:01:00Z",
            today: "2026-11-29", snapshot: "ucla-2026-11-29.sqlite", status: .published, inputsSHA256: String(repeating: "a", count: 64),
            partitions: [.init(source: "ucla-menu", key: "2026-11-29", status: .fetched, documents: inputs.count,
                               documentsReused: 0, notModified: 1, message: message)],
            inputs: inputs, stages: [.init(name: .fetch, seconds: 0.25, counts: ["documents": inputs.count])],
            checks: [CheckOutcome(name: "min_menu_items", severity: .error, passed: true, value: 3, message: message)],
            rowCounts: ["menu_item": 3], peakMemoryMB: 80)
    }

    @Test(arguments: [0, 1, 3])
    func theInputsWrittenDirectlyAreWhatTheEncoderWrites(count: Int) throws {
        let documents = [
            SourceDocument(url: "https://menu.dining.ucla.edu/Menus/2026-11-29", fetchedAt: "2026-11-29T04:00:01Z",
                           status: 200, sha256: String(repeating: "0", count: 64), charset: nil, byteCount: 306_716),
            SourceDocument(url: "file:///srv/pages/Caf\u{e9} \"Bruin\"/a\\b?x=1&y=\u{1}\n",
                           fetchedAt: "2026-11-29T04:00:02.125Z", status: 404, sha256: "e3b0", charset: "iso-8859-1",
                           byteCount: 0),
            SourceDocument(url: "https://example.edu/\u{1F32E}", fetchedAt: "", status: -1, sha256: "", charset: "",
                           byteCount: Int.max),
        ]
        // A message may hold the member's own text; escaped in a string, it is no member.
        let manifest = manifest(inputs: Array(documents.prefix(count)), message: #"{"inputs":[]} is what it said"#)
        let direct = try manifest.json()
        #expect(direct == (try UserJSON.encoder().encode(manifest)))
        #expect(try UserJSON.decoder().decode(RunManifest.self, from: direct) == manifest)
    }

    /// Partitions of every shape: without a message, with one that needs escaping or holds the
    /// member's own text, failed with a code, and one with an adapter's counts (a dictionary,
    /// whose keys the encoder sorts and leaves as the adapter spelt them).
    @Test func thePartitionsWrittenDirectlyAreWhatTheEncoderWrites() throws {
        var manifest = manifest(inputs: [], message: "ok")
        manifest.partitions = [
            .init(source: "ucla-menu", key: "2026-11-29", status: .fetched, documents: 7, documentsReused: 6,
                  notModified: 5, message: nil),
            .init(source: "ucla-menu", key: "2026-11-30", status: .stale, documents: 0, documentsReused: 0,
                  notModified: 0, message: #"kept: {"partitions":[]} "refused" \ 50% fewer"# + "\u{1}",
                  failure: "partition_refused"),
            .init(source: "caf\u{e9}", key: "week \u{1F32E}", status: .failed, documents: -1, documentsReused: Int.max,
                  notModified: Int.min, message: "", failure: ""),
            .init(source: "nutrislice", key: "2026-12-01", status: .reused, documents: 2, documentsReused: 2,
                  notModified: 0, message: nil, counts: ["rowsUnpublished": 3, "documents_unreadable": 1]),
        ]
        for count in 0...manifest.partitions.count {
            var some = manifest
            some.partitions = Array(manifest.partitions.prefix(count))
            let direct = try some.json()
            #expect(direct == (try UserJSON.encoder().encode(some)), "\(count) partitions")
        }
        let direct = try manifest.json()
        #expect(String(decoding: direct, as: UTF8.self).contains(#""counts":{"documents_unreadable":1,"rowsUnpublished":3}"#))
        #expect(try UserJSON.decoder().decode(RunManifest.self, from: direct).partitions.count == 4)
    }
}
