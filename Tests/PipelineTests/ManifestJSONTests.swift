import FoodModel
import Foundation
@testable import Pipeline
import Snapshot
import Testing

/// The manifest is written list element by list element; JSONEncoder, writing the whole value at
/// once, is the specification, byte for byte.
@Suite struct ManifestJSONTests {
    private func manifest(inputs: Int, partitions: Int) -> RunManifest {
        // Values that an encoder escapes or indents: quotes, backslashes, slashes, newlines,
        // non-ASCII text, an absent optional, nested dictionaries.
        let documents = (0..<inputs).map { index in
            SourceDocument(url: "https://menu.dining.ucla.edu/Menus/\(index)?q=\"a\\b\"", fetchedAt: "2026-11-22T06:00:0\(index % 10)Z",
                           status: 200, sha256: String(repeating: "ab", count: 32), charset: index % 2 == 0 ? "utf-8" : nil,
                           byteCount: index * 1_000)
        }
        let partitionList = (0..<partitions).map { index in
            RunManifest.Partition(source: "ucla-menu", key: "2017-01-\(index)", status: index % 3 == 0 ? "failed" : "fetched",
                                  documents: index, documentsReused: 0, notModified: 1,
                                  message: index % 3 == 0 ? "line one\nline two — «é»" : nil)
        }
        return RunManifest(
            pipeline: "nightly-menus", pipelineFile: "/srv/Pipelines/nightly menus.yml", runId: "0600000001ab",
            codeVersion: "1.0", arguments: ["run", "--force"], startedAt: "2026-11-22T06:00:00Z",
            finishedAt: "2026-11-22T06:01:00Z", today: "2026-11-22", snapshot: "nightly-menus-2026-11-22-0600000001ab.sqlite",
            published: true, unchanged: false, inputsSHA256: String(repeating: "0", count: 64),
            partitions: partitionList, inputs: documents,
            stages: [RunManifest.Stage(name: "fetch", seconds: 1.25, counts: ["documents": inputs, "menu_items": 7])],
            checks: [CheckOutcome(name: "min_menu_items", severity: .error, passed: true, value: 7, message: "7 items")],
            rowCounts: ["menu_item": 7, "food": 3])
    }

    @Test(arguments: [(0, 0), (1, 0), (0, 1), (3, 4), (250, 120)])
    func writesWhatJSONEncoderWrites(inputs: Int, partitions: Int) throws {
        let value = manifest(inputs: inputs, partitions: partitions)
        let expected = try RunManifest.makeEncoder().encode(value)
        let written = try value.encodedJSON()
        #expect(written == expected, "\(String(decoding: written.prefix(600), as: UTF8.self))")
        #expect(try JSONDecoder().decode(RunManifest.self, from: written) == value)
    }
}
