import Basics
import FoodModel
import Foundation
import HTML
import Pipeline
import SourceAdapters
import Testing
import TestSupport
import YAMLConfig

/// A mutation fuzzer over the real pages and responses in `../shared/data` (and the SampleData
/// site and pipeline files): each input is mutated (bytes flipped, ranges cut, duplicated or
/// spliced in from another input, markup characters inserted, truncated) and handed to its
/// parser. Every mutant must parse, or fail with the module's one-line error naming the input
/// (a `Failure` whose place names it), within a time bound; a crash fails the whole run.
/// Seeded per parser, so a failure reproduces from its name and index.
@Suite struct MutationFuzzTests {
    static let mutantsPerParser = 150
    /// Far above a parse of the largest real page in a debug build (tens of milliseconds).
    static let timeBound: Duration = .seconds(3)

    enum Parser: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case uclaOverview, uclaDetailed, uclaRecipe, uclaHours, foodProGrid, foodProLabel, uclaDatasetDay,
             mealDBResponse, pipelineFile

        var testDescription: String { rawValue }

        var inputs: [URL] {
            let data = Paths.sharedData
            switch self {
            case .uclaOverview:
                return [data.appendingPathComponent("ucla-menu-2019/overview-2019-10-13-sunday.html"),
                        Paths.sampleSite.appendingPathComponent("Menus/2026-10-12.html")]
            case .uclaDetailed: return [data.appendingPathComponent("ucla-menu-2021/detailed-menu-fragment.html")]
            case .uclaRecipe:
                return [data.appendingPathComponent("ucla-menu-2021/recipe-400317-bruin-cheeseburger-fragment.html"),
                        Paths.sampleSite.appendingPathComponent("Recipes/211045/1.html")]
            case .uclaHours: return [data.appendingPathComponent("ucla-hours-2014/dining-hall-hours-by-day.html")]
            case .foodProGrid: return [data.appendingPathComponent("foodpro-berkeley-2016/todaysentrees.html")]
            case .foodProLabel: return [data.appendingPathComponent("foodpro-berkeley-2016/label-153002.html")]
            case .uclaDatasetDay: return [data.appendingPathComponent("ucla-dataset-2016/2016-07-25.json")]
            case .mealDBResponse:
                let folder = data.appendingPathComponent("themealdb/responses")
                return ["search-3-meals.json", "lookup-52765.json", "lookup-52771.json", "categories.json",
                        "filter-c-beef-trimmed.json"].map { folder.appendingPathComponent($0) }
            case .pipelineFile:
                let folder = Paths.packageRoot.appendingPathComponent("Pipelines")
                return ["sample.yml", "nightly-ucla.yml", "ucla-menu-site-2019.yml", "recipes-backfill.yml"].map { folder.appendingPathComponent($0) }
            }
        }

        /// Parses one input; an error is returned when it is the kind that names its input.
        func parse(_ data: Data, name: String) throws {
            let url = "https://fuzz.example/\(name)"
            switch self {
            case .uclaOverview: _ = try UCLAMenuSite.parseOverview(data, url: url, charset: nil)
            case .uclaDetailed: _ = try UCLAMenuSite.parseDetailedMenu(data, url: url, charset: nil)
            case .uclaRecipe: _ = try UCLAMenuSite.parseRecipe(data, url: url, charset: nil, recipeId: "400317")
            case .uclaHours:
                _ = try UCLAMenuSite.parseHours(data, url: url, charset: nil, referenceDate: ServiceDate("2014-02-13"))
            case .foodProGrid: _ = try FoodPro.parseMenuGrid(data, url: url, charset: nil)
            case .foodProLabel: _ = try FoodPro.parseLabel(data, url: url, charset: nil, recipeId: "153002")
            case .uclaDatasetDay: _ = try UCLADataset.parseDay(data, date: ServiceDate("2016-07-25")!, location: url)
            case .mealDBResponse:
                if name.hasPrefix("categories") {
                    _ = try MealDB.decodeCategories(data, location: url)
                } else {
                    _ = try MealDB.decodeMeals(data, location: url)
                }
            case .pipelineFile:
                // Relative locations resolve against the real Pipelines folder, as for the file itself.
                let file = Paths.packageRoot.appendingPathComponent("Pipelines/\(name)")
                _ = try SpecReader.parse(String(decoding: data, as: UTF8.self), file: file)
            }
        }

        /// Whether a thrown error is the clear, located kind this parser promises.
        func isClear(_ error: any Error, name: String) -> Bool {
            switch error {
            case let failure as Failure where failure.code == .pipelineFile:
                return self == .pipelineFile && failure.place?.location.hasSuffix(name) == true
            case let failure as Failure where failure.code == .badInput:
                return failure.place?.location.contains(name) == true && !failure.message.isEmpty
            default: return false
            }
        }
    }

    /// One mutation of `data`, with `other` as a source of spliced-in bytes.
    static func mutate(_ data: Data, other: Data, using generator: inout SeededGenerator) -> Data {
        var bytes = [UInt8](data)
        guard !bytes.isEmpty else { return data }
        let rounds = Int.random(in: 1...4, using: &generator)
        for _ in 0..<rounds where !bytes.isEmpty {
            let at = Int.random(in: 0..<bytes.count, using: &generator)
            let length = min(bytes.count - at, Int.random(in: 1...512, using: &generator))
            switch Int.random(in: 0..<7, using: &generator) {
            case 0: // flip bytes
                for index in at..<(at + length) where Bool.random(using: &generator) {
                    bytes[index] ^= UInt8.random(in: 1...255, using: &generator)
                }
            case 1: bytes.removeSubrange(at..<(at + length))
            case 2: bytes.insert(contentsOf: bytes[at..<(at + length)], at: at)
            case 3: // markup and JSON structure characters where they do not belong
                let tokens: [[UInt8]] = ["<", ">", "\"", "</div>", "<td>", "{", "}", "[", "]", ":", ",", "\\u00",
                                         "&amp", "&#0;", "\0", "\u{FEFF}", "null", "-1e999", "\n- ", ": &a *a"]
                    .map { Array($0.utf8) }
                bytes.insert(contentsOf: tokens[Int.random(in: 0..<tokens.count, using: &generator)], at: at)
            case 4: bytes.removeSubrange(at...)
            case 5: // splice from another real input
                let source = [UInt8](other)
                guard !source.isEmpty else { continue }
                let from = Int.random(in: 0..<source.count, using: &generator)
                bytes.insert(contentsOf: source[from..<min(source.count, from + length)], at: at)
            default: // invalid UTF-8
                bytes.insert(contentsOf: [0xC3, 0x28, 0xFF, 0xFE, 0xED, 0xA0, 0x80], at: at)
            }
        }
        return Data(bytes)
    }

    @Test(arguments: Parser.allCases)
    func everyMutantParsesOrFailsClearlyInTime(_ parser: Parser) async throws {
        let inputs = try parser.inputs.map { ($0.lastPathComponent, try Data(contentsOf: $0)) }
        // The unmutated inputs parse: the fuzzer starts from working documents.
        for (name, data) in inputs {
            #expect(throws: Never.self, "\(name)") { try parser.parse(data, name: name) }
        }
        var generator = SeededGenerator(seed: UInt64(parser.rawValue.utf8.reduce(7) { $0 &* 31 &+ UInt64($1) }))
        let splice = try Data(contentsOf: Paths.sharedData.appendingPathComponent("themealdb/responses/lookup-52765.json"))
        let clock = ContinuousClock()
        var parsed = 0
        var refused = 0
        for index in 0..<Self.mutantsPerParser {
            let (name, original) = inputs[index % inputs.count]
            let mutant = Self.mutate(original, other: index.isMultiple(of: 2) ? splice : inputs[0].1, using: &generator)
            let started = clock.now
            do {
                try parser.parse(mutant, name: name)
                parsed += 1
            } catch {
                refused += 1
                #expect(parser.isClear(error, name: name), "mutant \(index) of \(name): \(type(of: error)): \(error)")
                #expect(!"\(error)".contains("\n"), "mutant \(index) of \(name): not one line: \(error)")
            }
            let took = clock.now - started
            #expect(took < Self.timeBound, "mutant \(index) of \(name) took \(took)")
        }
        #expect(parsed + refused == Self.mutantsPerParser)
        print("MutationFuzzTests \(parser.rawValue): \(parsed) parsed, \(refused) refused clearly")
    }
}
