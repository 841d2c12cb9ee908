import Foundation
import Testing
import TestSupport

/// Every adapter's real documents with their numbers replaced by extremes (±1e19, 1e400, -0,
/// 2^63, NaN and Infinity as strings, -1, the largest double), handed to the real binary: a
/// feed's `menuRowPlannedPortions: 1e19` once trapped `Int(_:)` and killed every night with
/// SIGILL. Every mutant must end with a status below 128 (no signal) and, when refused, one line
/// on standard error. Seeded, so a failure reproduces from its format and index.
@Suite struct ExtremeNumberFuzzTests {
    static let extremes = ["1e19", "-1e19", "1e400", "-0", "9223372036854775808", "-9223372036854775809",
                           "\"NaN\"", "\"Infinity\"", "-1", "1.7976931348623157e308", "NaN", "4294967296"]
    /// Half of them every number as one extreme: over the formats, each extreme several times.
    static let mutantsPerFormat = 6
    /// The daily-value standard `--dv-standard` computes %DV under, by path so that the binary
    /// finds it from any folder.
    static let standard = Paths.pipelines.appendingPathComponent("standards/fda-2016.yml").path

    /// One page format of one adapter, its real input, and what `parse` needs besides.
    struct Format: Sendable, CustomTestStringConvertible {
        var adapter: String
        var page: String
        var file: String
        var extra: [String] = []
        var testDescription: String { "\(adapter) \(page)" }
    }

    static let formats: [Format] = [
        Format(adapter: "ucla-menu-site", page: "overview", file: "ucla-menu-2019/overview-2019-10-13-sunday.html"),
        Format(adapter: "ucla-menu-site", page: "detailed", file: "ucla-menu-2021/detailed-menu-fragment.html"),
        Format(adapter: "ucla-menu-site", page: "recipe", file: "ucla-menu-2021/recipe-400317-bruin-cheeseburger-fragment.html",
               extra: ["--recipe-id", "400317", "--dv-standard", standard]),
        Format(adapter: "ucla-menu-site", page: "hours", file: "ucla-hours-2014/dining-hall-hours-by-day.html",
               extra: ["--date", "2014-02-13"]),
        Format(adapter: "foodpro", page: "menu", file: "foodpro-berkeley-2016/todaysentrees.html"),
        Format(adapter: "foodpro", page: "label", file: "foodpro-berkeley-2016/label-153002.html",
               extra: ["--recipe-id", "153002", "--dv-standard", standard]),
        Format(adapter: "ucla-dataset", page: "day", file: "ucla-dataset-2016/2016-07-25.json",
               extra: ["--date", "2016-07-25", "--dv-standard", standard]),
        Format(adapter: "mealdb-api", page: "meals", file: "themealdb/responses/search-3-meals.json"),
        Format(adapter: "mealdb-dump", page: "meals", file: "themealdb/responses/lookup-52765.json"),
        Format(adapter: "ucla-jamix", page: "menus", file: "ucla-jamix-2025/nights/2025-04-07/menus/2025-04-07.json",
               extra: ["--date", "2025-04-07"]),
        Format(adapter: "ucla-jamix", page: "recipe", file: "ucla-jamix-2025/recipes/1007.json",
               extra: ["--recipe-id", "1007", "--dv-standard", standard]),
        Format(adapter: "ucla-jamix", page: "ingredient", file: "ucla-jamix-2025/ingredients-2025-11-07.json#7808",
               extra: ["--recipe-id", "7808", "--dv-standard", standard]),
        Format(adapter: "nutrislice", page: "day", file: "nutrislice-2025/four-lakes-market_lunch_2025-08-17.json",
               extra: ["--dv-standard", standard]),
        Format(adapter: "dineoncampus", page: "menu", file: "dineoncampus-2019/location-menu-2019-07-08.json",
               extra: ["--date", "2019-07-08", "--dv-standard", standard]),
        Format(adapter: "netnutrition-label", page: "label", file: "netnutrition-2026/uiuc-label-122098028.html",
               extra: ["--recipe-id", "122098028", "--dv-standard", standard]),
    ]

    /// The real document; `file#key` is one entry of a JSON object of documents (the feed's
    /// ingredients, saved together).
    static func original(_ format: Format) throws -> Data {
        let parts = format.file.split(separator: "#").map(String.init)
        let data = try Data(contentsOf: Paths.sharedData.appendingPathComponent(parts[0]))
        guard parts.count == 2 else { return data }
        let all = try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
        return try JSONSerialization.data(withJSONObject: try #require(all[parts[1]]))
    }

    /// The numbers of a document, each with whether it stands inside a string: in JSON, every
    /// number value and every string that is a number with a unit (`"1.5g"`, `"30%"`); in HTML,
    /// every number that is not part of a name (`h1`, `&#38;`).
    static func numberRanges(in text: String, json: Bool) -> [(range: Range<String.Index>, quoted: Bool)] {
        let patterns = json
            ? [(#"(?<=[:\[,]\s{0,8})-?\d+(\.\d+)?([eE][+-]?\d+)?(?=\s*[,\]\}])"#, false),
               (#"(?<=")-?\d+(\.\d+)?(?=[A-Za-z% ]{0,6}")"#, true)]
            : [(#"(?<![A-Za-z#&\d.])\d+(\.\d+)?"#, true)]
        var found: [(range: Range<String.Index>, quoted: Bool)] = []
        for (pattern, quoted) in patterns {
            guard let regex = try? NSRegularExpression(pattern: pattern) else { continue }
            found += regex.matches(in: text, range: NSRange(text.startIndex..., in: text))
                .compactMap { Range($0.range, in: text) }.map { ($0, quoted) }
        }
        return found.sorted { $0.range.lowerBound < $1.range.lowerBound }
    }

    /// Mutant `index`: even ones replace every number by one extreme (the `offset`-th and on, so
    /// that the formats together try each), odd ones a random fifth of them by random extremes.
    /// Inside a string or a page, an extreme is written bare.
    static func mutate(_ text: String, json: Bool, index: Int, offset: Int = 0,
                       using generator: inout SeededGenerator) -> String {
        let everyOne = index.isMultiple(of: 2)
        let extreme = extremes[(offset + index / 2) % extremes.count]
        var result = text
        for (range, quoted) in numberRanges(in: text, json: json).reversed() {
            guard everyOne || Int.random(in: 0..<5, using: &generator) == 0 else { continue }
            var value = everyOne ? extreme : extremes[Int.random(in: 0..<extremes.count, using: &generator)]
            if quoted { value = value.replacingOccurrences(of: "\"", with: "") }
            result.replaceSubrange(range, with: value)
        }
        return result
    }

    @Test(arguments: formats)
    func extremeNumbersNeverEndTheBinaryBySignal(_ format: Format) async throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let original = String(decoding: try Self.original(format), as: UTF8.self)
        let json = format.file.contains(".json")
        #expect(Self.numberRanges(in: original, json: json).count > 3, "the fuzzer finds the document's numbers")
        let name = URL(fileURLWithPath: String(format.file.split(separator: "#")[0])).lastPathComponent
        var generator = SeededGenerator(seed: UInt64(format.testDescription.utf8.reduce(11) { $0 &* 31 &+ UInt64($1) }))
        let offset = (Self.formats.firstIndex { $0.testDescription == format.testDescription } ?? 0) * Self.mutantsPerFormat / 2
        var refused = 0
        for index in 0..<Self.mutantsPerFormat {
            let file = folder.appendingPathComponent("\(index)-\(name)")
            try Data(Self.mutate(original, json: json, index: index, offset: offset, using: &generator).utf8).write(to: file)
            let run = try await CommissaryProcess.run(
                ["parse", "--adapter", format.adapter, "--page", format.page, file.path] + format.extra)
            #expect(run.status < 128, "mutant \(index) of \(format.testDescription): signal \(run.status - 128): \(run.error.prefix(300))")
            if run.status != 0 {
                refused += 1
                let lines = run.error.split(separator: "\n")
                #expect(lines.count == 1 && lines[0].hasPrefix("error: "),
                        "mutant \(index) of \(format.testDescription): \(run.error.prefix(500))")
            }
        }
        print("ExtremeNumberFuzzTests \(format.testDescription): \(Self.mutantsPerFormat - refused) parsed, \(refused) refused in one line")
    }

    /// Whole runs, past parsing: %DV, the label checks, the staging writer and publishing get the
    /// extremes too. The sample site with every menu and recipe page mutated, and a folder of the
    /// UCLA dataset's days mutated, each read by a pipeline under a daily-value standard.
    @Test(arguments: ["site", "dataset"])
    func extremeNumbersNeverEndARunBySignal(_ source: String) async throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var generator = SeededGenerator(seed: source == "site" ? 20_261_012 : 20_160_725)
        var published = 0
        for index in 0..<4 {
            let input = folder.appendingPathComponent("input-\(index)")
            let files: [URL]
            if source == "site" {
                try FileManager.default.copyItem(at: Paths.sampleSite, to: input)
                files = FileManager.default.enumerator(at: input, includingPropertiesForKeys: nil)?
                    .compactMap { $0 as? URL }.filter { $0.pathExtension == "html" } ?? []
            } else {
                try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
                files = try ["2016-07-25.json", "2016-07-26.json"].map { name in
                    let file = input.appendingPathComponent(name)
                    try FileManager.default.copyItem(at: Paths.sharedData.appendingPathComponent("ucla-dataset-2016/\(name)"),
                                                     to: file)
                    return file
                }
            }
            #expect(!files.isEmpty)
            for file in files {
                let text = try String(contentsOf: file, encoding: .utf8)
                // The dataset refuses a day at its first value that is no number (`1e19g`), so
                // its whole-day mutants take the extremes it reads as numbers: 2^63 and below -2^63.
                try Data(Self.mutate(text, json: source == "dataset", index: index, offset: source == "dataset" ? 4 : 0,
                                     using: &generator).utf8).write(to: file)
            }
            let pipeline = folder.appendingPathComponent("fuzz-\(index).yml")
            try Data((source == "site" ? """
                pipeline: fuzz-\(index)
                dv_standard: \(Paths.pipelines.appendingPathComponent("standards/ucla-label.yml").path)
                sources:
                  - name: ucla-menu
                    adapter: ucla-menu-site
                    location: \(input.path)
                    dates: {from: 2026-10-10, to: 2026-10-12}
                    recipe_pages: true
                    hours: true
                checks:
                  max_failed_partitions: 3
                """ : """
                pipeline: fuzz-\(index)
                dv_standard: \(Paths.pipelines.appendingPathComponent("standards/ucla-label.yml").path)
                sources:
                  - name: ucla-dataset
                    adapter: ucla-dataset
                    location: \(input.path)
                checks:
                  max_failed_partitions: 1
                """).utf8).write(to: pipeline)
            let run = try await CommissaryProcess.run(["run", pipeline.path, "--workspace", folder.path, "--quiet"])
            #expect(run.status < 128, "\(source) mutant \(index): signal \(run.status - 128): \(run.error.prefix(300))")
            let lines = run.error.split(separator: "\n")
            #expect(run.status == 0 ? lines.isEmpty : lines.count == 1 && lines[0].hasPrefix("error: "),
                    "\(source) mutant \(index): \(run.status) \(run.error.prefix(500))")
            if run.status == 0 || run.status == 6 { published += 1 }
        }
        // The fuzzer reaches past parsing: some mutants are published, extremes and all.
        #expect(published > 0)
    }
}
