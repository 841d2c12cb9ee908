import Basics
import Fetching
import FoodModel
import Foundation
import PropertyBased
import SourceAdapters
import Testing
import TestSupport

/// Any bytes handed to any page format of any adapter (`PageFormat.read`, what a run and
/// `commissary parse` call) give a parsed page or one clear failure: a `Failure` of the bad-input
/// kind whose description is one line naming the document, never another error, a crash or a
/// hang. The inputs are generated (swift-property-based prints the seed of a failing input, to
/// replay with `.fixedSeed`): bytes and fragments made from nothing, and mutations of the format's
/// real sample (`AdapterSamples`), which reach further into a reader than noise does.
///
/// The cases are the registry's formats, so an adapter added to `AdapterRegistry` is fuzzed
/// from the day it is added, and fails here until it brings a sample.
@Suite struct ParseAnyBytesTests {
    /// One page format of one adapter, as the registry lists it.
    struct Format: Sendable, CustomTestStringConvertible {
        var adapter: String
        var format: String
        var testDescription: String { "\(adapter) \(format)" }

        static var all: [Format] {
            AdapterRegistry.all.flatMap { adapter in
                adapter.pageFormats.map { Format(adapter: adapter.name, format: $0.name) }
            }
        }
    }

    /// Far above a parse of the largest sample in a debug build with the other formats' cases
    /// running beside it (under a second); an input past it counts as a hang.
    static let timeBound: Duration = .seconds(5)
    /// Inputs made from nothing, per format: small, so each takes milliseconds.
    static let generatedInputs = 200
    /// Mutations of the sample per format, fewer for a sample slow to read (the 1.2 MB TheMealDB
    /// dump) so that the whole suite stays well under a minute on two cores.
    static let mutationRange = 40...200
    static let mutationBudget: Duration = .seconds(6)

    @Test func everyFormatOfTheRegistryHasASampleToMutate() {
        let registry = Set(Format.all.map(\.testDescription))
        let samples = Set(AdapterSamples.all.flatMap { adapter, formats in formats.keys.map { "\(adapter) \($0)" } })
        #expect(registry == samples,
                "formats without a sample: \(registry.subtracting(samples).sorted()); samples of no format: \(samples.subtracting(registry).sorted())")
        #expect(registry.count >= 17, "the registry lists fewer formats than the seventeen this suite was written with")
    }

    @Test(arguments: Format.all)
    func anyBytesParseOrFailInOneLineInTime(_ format: Format) async throws {
        let adapter = try #require(AdapterRegistry.adapter(named: format.adapter))
        let reader = try #require(adapter.pageFormats.first { $0.name == format.format })
        let sample = try #require(AdapterSamples.all[format.adapter]?[format.format],
                                  "\(format.testDescription) has no sample in AdapterSamples")
        let original = try sample.body(sample.file)
        // The URL names the sample's file, as the seam test's does, so that a recipe or label
        // format finds its id in it and a failure's place can be compared with it.
        let url = sample.file.path
        let hints = PageHints(recipeId: nil, date: sample.date.flatMap { ServiceDate($0) },
                              today: try #require(ServiceDate("2026-10-12")))
        var checker = Checker(reader: reader, url: url, hints: hints)

        // The sample itself parses: mutations start from a working document.
        let clock = ContinuousClock()
        let started = clock.now
        #expect(throws: Never.self, "\(format.testDescription): the unmutated sample") {
            _ = try reader.read(Self.document(original, url: url), hints)
        }
        let once = clock.now - started
        let material = Material(original)

        await propertyCheck(count: Self.generatedInputs, input: Self.fromNothing(material)) { input in
            checker.check(input)
        }
        let mutations = min(Self.mutationRange.upperBound,
                            max(Self.mutationRange.lowerBound, Int(Self.mutationBudget / max(once, .milliseconds(1)))))
        await propertyCheck(count: mutations, input: Self.mutated(material)) { input in
            checker.check(input)
        }

        #expect(checker.slow.isEmpty,
                "\(format.testDescription): \(checker.slow.count) input(s) took over \(Self.timeBound): \(checker.slow.prefix(5))")
        #expect(checker.parsed + checker.refused == Self.generatedInputs + mutations)
        // Refusals happen (the sample showed that reading does): a reader that took anything
        // would pass the checks above without their ever being reached.
        #expect(checker.refused > 0, "\(format.testDescription): \(checker.parsed) parsed, none refused")
        print("ParseAnyBytesTests \(format.testDescription): \(checker.parsed) parsed, \(checker.refused) refused "
              + "clearly, \(Self.generatedInputs + mutations) inputs, the sample read in \(once)")
    }

    /// Reads one input with the format and judges what came back.
    struct Checker {
        var reader: PageFormat
        var url: String
        var hints: PageHints
        var parsed = 0
        var refused = 0
        var slow: [String] = []

        mutating func check(_ input: Input) {
            let clock = ContinuousClock()
            let started = clock.now
            do {
                _ = try reader.read(ParseAnyBytesTests.document(input.bytes, url: url), hints)
                parsed += 1
            } catch let failure as Failure {
                refused += 1
                let line = "\(failure)"
                // A line break of any kind (CR, LF, U+2028…) would let a document's bytes start a line.
                let breaks = line.contains { $0.isNewline }
                #expect(!breaks, "\(input): not one line: \(line)")
                #expect(failure.place?.location == url, "\(input): the failure names \(failure.place?.description ?? "no place"): \(line)")
                #expect(!failure.message.isEmpty, "\(input): no message")
                #expect(failure.code.category == .badInput, "\(input): \(failure.code) is not a bad input: \(line)")
            } catch {
                Issue.record("\(input): not a Failure: \(type(of: error)): \(error)")
            }
            let took = clock.now - started
            if took > ParseAnyBytesTests.timeBound { slow.append("\(input) took \(took)") }
        }
    }

    static func document(_ body: Data, url: String) -> FetchedDocument {
        FetchedDocument(url: url, status: 200, headers: [:], body: body, charset: nil, sha256: "", fetchedAt: Date())
    }

    /// One generated input: its bytes, and how it was made (what a failure prints, since the
    /// bytes of a mutated sample are too many to read).
    struct Input: Sendable, CustomStringConvertible {
        var how: String
        var bytes: Data
        var description: String { "\(how) (\(bytes.count) bytes)" }
    }

    /// What generation draws on from a sample: its bytes, its JSON keys or HTML tags (so that
    /// generated structure looks like the source's and gets past a reader's first checks).
    struct Material: Sendable {
        var original: Data
        var isJSON: Bool
        var keys: [String]
        var tags: [String]

        init(_ original: Data) {
            self.original = original
            let tree = try? JSONSerialization.jsonObject(with: original, options: [.fragmentsAllowed])
            isJSON = tree != nil
            var keys = Set<String>()
            func walk(_ value: Any) {
                if let object = value as? [String: Any] {
                    for (key, child) in object { keys.insert(key); walk(child) }
                } else if let array = value as? [Any] {
                    array.forEach(walk)
                }
            }
            tree.map(walk)
            self.keys = keys.sorted()
            let text = String(decoding: original, as: UTF8.self)
            let opening = (try? NSRegularExpression(pattern: "<[a-zA-Z][^<>]{0,200}>"))?
                .matches(in: text, range: NSRange(text.startIndex..., in: text))
                .compactMap { Range($0.range, in: text).map { String(text[$0]) } } ?? []
            tags = Array(Set(opening)).sorted().prefix(300).map { $0 }
        }
    }

    // MARK: Generators

    /// Inputs that owe the sample nothing but its vocabulary: random bytes, random text of the
    /// characters JSON and HTML are made of, a random JSON value, an HTML fragment.
    static func fromNothing(_ material: Material) -> Generator<Input, Shrink.None<Input>> {
        Generator { rng in
            switch Int.random(in: 0..<4, using: &rng) {
            case 0:
                let count = Int.random(in: 0...2048, using: &rng)
                return Input(how: "random bytes", bytes: Data((0..<count).map { _ in UInt8.random(in: 0...255, using: &rng) }))
            case 1:
                let alphabet = Array("{}[]\":,<>/=&;#!-?.0123456789eEaltrunfs \n\t\\u".utf8)
                let count = Int.random(in: 0...1024, using: &rng)
                return Input(how: "random structural text",
                             bytes: Data((0..<count).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &rng)] }))
            case 2:
                let value = randomJSON(material.keys, depth: 4, using: &rng)
                return Input(how: "a random JSON value", bytes: serialized(value))
            default:
                return Input(how: "an HTML fragment", bytes: Data(htmlFragment(material.tags, using: &rng).utf8))
            }
        }
    }

    /// The sample mutated: cut short at a random offset, bytes flipped, deep nesting inserted,
    /// one of its JSON values replaced by a random one, an HTML fragment spliced in.
    static func mutated(_ material: Material) -> Generator<Input, Shrink.None<Input>> {
        Generator { rng in
            var bytes = [UInt8](material.original)
            let at = Int.random(in: 0...bytes.count, using: &rng)
            switch Int.random(in: 0..<(material.isJSON ? 5 : 4), using: &rng) {
            case 0:
                return Input(how: "the sample cut at \(at)", bytes: Data(bytes.prefix(at)))
            case 1:
                let flips = Int.random(in: 1...16, using: &rng)
                for _ in 0..<flips where !bytes.isEmpty {
                    bytes[Int.random(in: 0..<bytes.count, using: &rng)] ^= UInt8.random(in: 1...255, using: &rng)
                }
                return Input(how: "the sample with \(flips) byte(s) flipped", bytes: Data(bytes))
            case 2:
                // Around the JSON readers' limit of 512 and far past it; HTML's libxml2 has its own.
                let depth = [64, 511, 513, 5_000, 20_000][Int.random(in: 0..<5, using: &rng)]
                let openers = ["[", "{\"a\":", "{\"\(material.keys.first ?? "a")\":", "<div>", "<table><tr><td>", "<ul><li>"]
                let opener = openers[Int.random(in: 0..<openers.count, using: &rng)]
                bytes.insert(contentsOf: Array(String(repeating: opener, count: depth).utf8), at: at)
                return Input(how: "the sample with \(opener) nested \(depth) deep at \(at)", bytes: Data(bytes))
            case 3:
                let fragment = htmlFragment(material.tags, using: &rng)
                bytes.insert(contentsOf: Array(fragment.utf8), at: at)
                return Input(how: "the sample with an HTML fragment at \(at)", bytes: Data(bytes))
            default:
                // Parsed again each time: the tree is not Sendable, and Foundation's reader (built
                // optimized) reads even the 1.2 MB dump in milliseconds.
                let tree = (try? JSONSerialization.jsonObject(with: material.original, options: [.fragmentsAllowed])) ?? NSNull()
                var path: [String] = []
                let changed = replacingOne(in: tree, path: &path, keys: material.keys, using: &rng)
                let data = (try? JSONSerialization.data(withJSONObject: changed, options: [.fragmentsAllowed])) ?? Data()
                return Input(how: "the sample with \(path.isEmpty ? "the whole" : path.joined(separator: "."))"
                             + " replaced by a random JSON value", bytes: data)
            }
        }
    }

    /// `value` with one node, reached by a random walk down, replaced by a random JSON value;
    /// `path` says which.
    static func replacingOne(in value: Any, path: inout [String], keys: [String],
                             using rng: inout any SeededRandomNumberGenerator) -> Any {
        // Stop here now and then, or where there is nowhere further to go.
        let stop = Int.random(in: 0..<6, using: &rng) == 0
        if var object = value as? [String: Any], !object.isEmpty, !stop {
            let key = object.keys.sorted()[Int.random(in: 0..<object.count, using: &rng)]
            path.append(key)
            object[key] = replacingOne(in: object[key]!, path: &path, keys: keys, using: &rng)
            return object
        }
        if var array = value as? [Any], !array.isEmpty, !stop {
            let index = Int.random(in: 0..<array.count, using: &rng)
            path.append("\(index)")
            array[index] = replacingOne(in: array[index], path: &path, keys: keys, using: &rng)
            return array
        }
        return foundationValue(randomJSON(keys, depth: 2, using: &rng))
    }

    /// A JSON value, as a small tree that is Sendable and serializes in one way.
    indirect enum JSONValue: Sendable {
        case null, bool(Bool), number(Double), integer(Int), string(String), array([JSONValue])
        case object([(String, JSONValue)])
    }

    static func randomJSON(_ keys: [String], depth: Int, using rng: inout any SeededRandomNumberGenerator) -> JSONValue {
        let strings = ["", " ", "\u{0}", "\n\r", "<b>x</b>", "&amp;", "2026-02-30", "2026-10-12", "NaN", "-1", "1/2",
                       "½ cup", "100%", "0", "🍔", String(repeating: "x", count: 5_000), "\u{202E}evil", "null", "true"]
        let numbers: [Double] = [0, -0.0, -1, 0.5, 1e308, -1e308, Double.leastNonzeroMagnitude, 99_999_999_999, 1_000_000]
        let choice = Int.random(in: 0..<(depth > 0 ? 8 : 6), using: &rng)
        switch choice {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &rng))
        case 2: return .number(numbers[Int.random(in: 0..<numbers.count, using: &rng)])
        case 3: return .integer([Int.min, Int.max, 0, 1, -1, 999, 2_147_483_648][Int.random(in: 0..<7, using: &rng)])
        case 4: return .string(strings[Int.random(in: 0..<strings.count, using: &rng)])
        case 5:
            return .string(keys.isEmpty ? "" : keys[Int.random(in: 0..<keys.count, using: &rng)])
        case 6:
            return .array((0..<Int.random(in: 0...4, using: &rng)).map { _ in randomJSON(keys, depth: depth - 1, using: &rng) })
        default:
            let names = keys.isEmpty ? ["a", "id", "name"] : keys
            return .object((0..<Int.random(in: 0...6, using: &rng)).map { _ in
                (names[Int.random(in: 0..<names.count, using: &rng)], randomJSON(keys, depth: depth - 1, using: &rng))
            })
        }
    }

    static func serialized(_ value: JSONValue) -> Data {
        (try? JSONSerialization.data(withJSONObject: foundationValue(value), options: [.fragmentsAllowed])) ?? Data("null".utf8)
    }

    static func foundationValue(_ value: JSONValue) -> Any {
        switch value {
        case .null: NSNull()
        case .bool(let flag): flag
        case .number(let number): number
        case .integer(let integer): integer
        case .string(let text): text
        case .array(let items): items.map(foundationValue)
        case .object(let pairs): Dictionary(pairs.map { ($0.0, foundationValue($0.1)) }, uniquingKeysWith: { first, _ in first })
        }
    }

    /// Tags of the sample and markup that breaks naive readers, unbalanced, with text between.
    static func htmlFragment(_ tags: [String], using rng: inout any SeededRandomNumberGenerator) -> String {
        let markup = ["<table>", "</table>", "<tr>", "</tr>", "<td>", "</td>", "<div>", "</div>", "<li>", "<a href=\"",
                      "<!--", "-->", "<![CDATA[", "]]>", "<script>", "</script>", "<br/>", "<meta charset=\"utf-16\">",
                      "&amp;", "&#0;", "&#x110000;", "&bogus;", "&nbsp;", "\u{0}", "\u{FEFF}", "\"", "'", "<", ">",
                      "Calories", "Total Fat", "Serving Size", "100%", "½", "\n", "12g", "Egg White"]
        let count = Int.random(in: 1...60, using: &rng)
        return (0..<count).map { _ -> String in
            if !tags.isEmpty, Bool.random(using: &rng) {
                let tag = tags[Int.random(in: 0..<tags.count, using: &rng)]
                // Now and then its closing tag instead.
                if Int.random(in: 0..<3, using: &rng) == 0, let name = tag.dropFirst().split(whereSeparator: { " >/".contains($0) }).first {
                    return "</\(name)>"
                }
                return tag
            }
            return markup[Int.random(in: 0..<markup.count, using: &rng)]
        }.joined()
    }
}
