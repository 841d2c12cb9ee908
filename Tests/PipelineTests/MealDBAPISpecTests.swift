import Basics
import Foundation
import Pipeline
import SourceAdapters
import YAMLConfig
import Testing
import TestSupport

/// The pipeline-file settings of the `mealdb-api` adapter: where it may point, which letters,
/// how fast.
@Suite struct MealDBAPISpecTests {
    private func read(_ source: String, fetch: String = "") throws -> PipelineSpec {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("{}".utf8).write(to: folder.appendingPathComponent("meals.json"))
        let file = folder.appendingPathComponent("test.yml")
        try Data("pipeline: demo\nsources:\n  - name: meals\n\(source)\n\(fetch)".utf8).write(to: file)
        return try SpecReader.read(file)
    }

    private func failure(_ source: String, fetch: String = "") throws -> Failure {
        do {
            _ = try read(source, fetch: fetch)
        } catch let error as Failure {
            return error
        }
        Issue.record("expected a Failure")
        throw CancellationError()
    }

    @Test func readsLettersAndTheRate() throws {
        let spec = try read("    adapter: mealdb-api\n    location: https://www.themealdb.com/\n    letters: AbZ09",
                            fetch: "fetch:\n  requests_per_second: 1.5")
        #expect(spec.sources[0].location == .web("https://www.themealdb.com"))
        #expect((spec.sources[0].settings as? MealDBAPIAdapter.Settings)?.letters == ["a", "b", "z", "0", "9"])
        #expect(spec.fetch.requestsPerSecond == 1.5)
        #expect((try read("    adapter: mealdb-api\n    location: https://www.themealdb.com").sources[0].settings as? MealDBAPIAdapter.Settings)?.letters == nil)
    }

    @Test func badSettingsAreNamed() throws {
        let notALetter = try failure("    adapter: mealdb-api\n    location: https://x.test\n    letters: ab-")
        #expect(notALetter.place?.key == "sources[0].letters")
        #expect(notALetter.message.contains("\"-\""))
        #expect(try failure("    adapter: mealdb-api\n    location: https://x.test\n    letters: aba")
            .message.contains("twice"))
        #expect(try failure("    adapter: mealdb-dump\n    location: meals.json\n    letters: ab")
            .message.contains("mealdb-api"))
        let file = try failure("    adapter: mealdb-api\n    location: meals.json")
        #expect(file.place?.key == "sources[0].location")
        #expect(file.message.contains("http(s) URL"))
        #expect(try failure("    adapter: mealdb-api\n    location: https://x.test", fetch: "fetch:\n  requests_per_second: 0")
            .place?.key == "fetch.requests_per_second")
    }
}
