import Basics
import Fetching
import FoodModel
import Foundation
import Pipeline
import PropertyBased
import SourceAdapters
import Testing
import TestSupport
import YAMLConfig

/// Properties over generated input (swift-property-based, which prints the seed of any failure
/// so that it can be replayed with `.fixedSeed`): the measure parser, the pipeline-file reader
/// and the way URLs become file names never crash, never hang, and never leave their folder.
@Suite struct PropertyTests {
    /// Characters measures are written with, plus the ones that break naive parsers.
    static let measureCharacter = Gen<Character?>.element(of: Array(
        "0123456789 ½¼¾⅓/.-–,()abcdefghijklmnopqrstuvwxyz tbsp tsp cup g kg ml lb oz pinch of to x ×\t\u{00A0}\u{FEFF}")
        as [Character]).map { $0 ?? " " }

    @Test func theMeasureParserClassifiesEveryStringAndKeepsItRaw() async {
        await propertyCheck(count: 400, input: Self.measureCharacter.string(of: 0...40)) { text in
            let clock = ContinuousClock()
            let started = clock.now
            let measure = MeasureParser.parse(text)
            #expect(clock.now - started < .seconds(1))
            #expect((0...1).contains(measure.confidence))
            if measure.kind == .quantity || measure.kind == .count {
                #expect(measure.quantity != nil, "\(text) → \(measure)")
            }
            if let quantity = measure.quantity, let maximum = measure.maximum {
                #expect(quantity.doubleValue <= maximum.doubleValue, "\(text) → \(measure)")
            }
        }
    }

    @Test func arbitraryBytesAsMeasuresNeverCrash() async {
        await propertyCheck(count: 300, input: Gen<Character>.latin1.string(of: 0...64)) { text in
            _ = MeasureParser.parse(text)
        }
    }

    /// Pipeline files built from the real keys with generated values and indentation: each one
    /// reads, or fails with a `Failure` naming the file (and a line whenever a node is
    /// to blame).
    @Test func generatedPipelineFilesReadOrFailWithALocation() async throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("generated.yml")
        let keys = ["pipeline", "sources", "checks", "fetch", "min_menu_items", "max_failed_partitions",
                    "dates", "from", "days_ahead", "adapter", "location", "retries", "delay_ms", "name", "- name",
                    "required_restaurants", "max_drop_from_previous", "&anchor", "*anchor", "[", "{", "'", "\""]
        let values = ["ucla-menu-site", "mealdb-dump", "2026-10-10", "-1", "0.5", "99999999999999999999", "true",
                      "../etc", "https://example.org", "{from: 2026-10-10}", "[a, b]", "", "~", "!!binary AA==",
                      "\u{0}", "é"]
        let line = zip(Gen<Int>.value(in: 0...4), Gen<String?>.element(of: keys), Gen<String?>.element(of: values))
            .map { indent, key, value in String(repeating: "  ", count: indent) + (key ?? "") + ": " + (value ?? "") }
        await propertyCheck(count: 300, input: line.array(of: 1...12)) { lines in
            let text = "pipeline: generated\n" + lines.joined(separator: "\n")
            do {
                _ = try SpecReader.parse(text, file: file)
            } catch let error as Failure {
                #expect(error.place?.location == file.path)
                #expect(!error.message.isEmpty)
                #expect(!"\(error)".contains("\n"), "\(error)")
            } catch {
                Issue.record("not a Failure: \(type(of: error)): \(error)\n\(text)")
            }
        }
    }

    /// However a URL is spelled (dot segments, encoded dots, NUL, a recipe id of `..`), the raw
    /// store writes only its index and hashed names under its own root, and reads the URL back
    /// as it was given.
    @Test func urlsNeverNamePathsOutsideTheRawStore() async throws {
        let root = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let store = RawStore(root: root.appendingPathComponent("raw"))
        let segment = Gen<String?>.element(of: ["..", ".", "%2e%2e", "etc", "passwd", "Recipes", "", "\u{0}", "~", "a b"])
            .map { $0 ?? "" }
        await propertyCheck(count: 200, input: segment.array(of: 1...8)) { segments in
            let url = "https://menu.dining.ucla.edu/" + segments.joined(separator: "/")
            let body = Data(url.utf8)
            _ = try? store.store(FetchedDocument(url: url, status: 200, headers: [:], body: body, charset: nil,
                                             sha256: sha256Hex(body), fetchedAt: Date()))
            #expect((try? store.latestDocument(for: url))??.body == body, "\(url)")
        }
        let everything = FileManager.default.enumerator(atPath: root.path)?.allObjects as? [String] ?? []
        for path in everything {
            #expect(path == "raw" || path.hasPrefix("raw/index.sqlite") || path.hasPrefix("raw/packs")
                    || path.hasPrefix("raw/objects") || path.hasPrefix("raw/records"), "\(path)")
        }
        let names = everything.compactMap { $0.split(separator: "/").last.map(String.init) }
        #expect(names.allSatisfy { $0.range(of: "^[0-9a-f]{2}$|^[0-9a-f]{64}(\\.jsonl)?$|^raw$|^objects$|^records$|^index\\.sqlite(-wal|-shm)?$|^packs$|^[0-9-]+\\.pack$",
                                            options: .regularExpression) != nil }, "\(names.prefix(5))")
    }

    /// A folder source never serves a file outside its root, whatever the URL's path.
    @Test func aFolderSourceNeverLeavesItsRoot() async throws {
        let source = DirectorySource(root: Paths.sampleSite)
        let segment = Gen<String?>.element(of: ["..", ".", "Menus", "2026-10-12", "Recipes", "211045", "1", "etc",
                                               "passwd", "README.md", "..%2f", ""])
            .map { $0 ?? "" }
        await propertyCheck(count: 200, input: segment.array(of: 1...6)) { segments in
            let url = "file:///" + segments.joined(separator: "/")
            if let document = try? await source.fetch(url) {
                #expect(!segments.contains(".."), "\(url) was served")
                #expect(document.status == 200)
            }
        }
    }
}
