import Basics
import Foundation
import PropertyBased
import Testing
import YAMLConfig

/// The YAML reader every configuration file goes through (pipelines, standards, plans, term
/// calendars): each value read by its kind, each refusal one line naming the file, the line and
/// column where YAMLs count them (from 1), and the key path inside the file.
@Suite struct YAMLNodesTests {
    let file = URL(fileURLWithPath: "/srv/commissary/Pipelines/night.yml")

    private func top(_ text: String) throws -> YAMLMapping {
        try YAMLFile.mapping(of: text, file: file, what: "pipeline file")
    }

    /// The one line of what `body` throws.
    private func refusal(_ body: () throws -> Void) -> String {
        do {
            try body()
            return "nothing thrown"
        } catch {
            return "\(error)"
        }
    }

    @Test func valuesAreReadByTheirKind() throws {
        let map = try top("""
            name: "  ucla  "
            retries: 3
            ratio: 0.25
            force: yes
            from: 2026-10-12
            days: [a, b]
            """)
        #expect(try map.required("name").string() == "ucla")
        #expect(try map.required("retries").int(in: 0...10) == 3)
        #expect(try map.required("ratio").double(in: 0...1) == 0.25)
        #expect(try map.required("force").bool())
        #expect(try map.required("from").date().description == "2026-10-12")
        #expect(try map.required("days").sequence().map { try $0.string() } == ["a", "b"])
        #expect(map.keys == ["name", "retries", "ratio", "force", "from", "days"])
        #expect(try map.optional("absent") == nil)
    }

    /// Line 3, column 3 is where `retries` stands under `fetch:`; its key path says both levels.
    @Test func aValueOutOfRangeNamesItsLineColumnAndKeyPath() throws {
        let map = try top("""
            pipeline: night
            fetch:
              retries: 99
            """)
        let fetch = try YAMLMapping(try map.required("fetch"))
        #expect(refusal { _ = try fetch.required("retries").int(in: 0...10) }
                == "/srv/commissary/Pipelines/night.yml:3:12: fetch.retries: must be between 0 and 10, found 99")
    }

    @Test func eachKindRefusesWhatItIsNot() throws {
        let map = try top("""
            a: ten
            b: inf
            c: maybe
            d: 2026-13-40
            e: [1]
            f: ""
            """)
        let place = "/srv/commissary/Pipelines/night.yml"
        #expect(refusal { _ = try map.required("a").int() } == "\(place):1:4: a: expected a whole number, found \"ten\"")
        #expect(refusal { _ = try map.required("b").double(in: 0...100) }
                == "\(place):2:4: b: must be a number between 0 and 100, found inf")
        #expect(refusal { _ = try map.required("c").bool() } == "\(place):3:4: c: expected true or false, found \"maybe\"")
        #expect(refusal { _ = try map.required("d").date() } == "\(place):4:4: d: expected a date as YYYY-MM-DD, found \"2026-13-40\"")
        #expect(refusal { _ = try map.required("e").string() } == "\(place):5:4: e: expected text, found a list")
        #expect(refusal { _ = try map.required("f").string() } == "\(place):6:4: f: must not be empty")
        #expect(refusal { _ = try map.required("a").sequence() } == "\(place):1:4: a: expected a list, found \"ten\"")
    }

    @Test func unknownAndMissingKeysAreNamed() throws {
        let map = try top("""
            pipeline: night
            sources:
              - name: ucla
                adaptr: ucla-jamix
            """)
        let source = try YAMLMapping(try map.required("sources").sequence()[0])
        #expect(refusal { try source.allowOnly(["name", "adapter"]) }
                == "/srv/commissary/Pipelines/night.yml:4:5: sources[0].adaptr: unknown key; allowed here: adapter, name")
        #expect(refusal { _ = try source.required("adapter") }
                == "/srv/commissary/Pipelines/night.yml:3:5: sources[0].adapter: is required")
    }

    @Test func syntaxErrorsAndEmptyFilesAreOneLine() throws {
        let place = "/srv/commissary/Pipelines/night.yml"
        #expect(refusal { _ = try top("") } == "\(place): the pipeline file is empty")
        #expect(refusal { _ = try top("- a\n- b\n") } == "\(place):1:1: expected a mapping of keys to values")
        let duplicated = refusal { _ = try top("a: 1\na: 2\n") }
        #expect(duplicated.hasPrefix("\(place):") && duplicated.contains("duplicated key(s) `a`"), "\(duplicated)")
        let broken = refusal { _ = try top("a: [1, 2\nb: 3\n") }
        #expect(broken.hasPrefix("\(place):") && broken.contains("not valid YAML"), "\(broken)")
        #expect(!broken.contains("\n"))
    }

    /// Every value is text to the file's reader, whatever YAML would type it as: a key written
    /// once plain and once quoted is the same key, refused as a duplicate rather than one of the
    /// two read silently, and a value reads as it is written.
    @Test func keysAndValuesAreTheTextWritten() throws {
        let place = "/srv/commissary/Pipelines/night.yml"
        for twice in ["1: a\n\"1\": b\n", "yes: a\n'yes': b\n", "~: a\n\"~\": b\n"] {
            let duplicated = refusal { _ = try top(twice) }
            #expect(duplicated.hasPrefix("\(place):") && duplicated.contains("duplicated key(s)"), "\(twice): \(duplicated)")
        }
        let map = try top("zip: 010\nflag: yes\nsize: 1e3\nday: 2026-11-30\n")
        #expect(try map.required("zip").string() == "010")
        #expect(try map.required("flag").bool() == true)
        #expect(try map.required("size").double() == 1000)
        #expect(try map.required("day").date().description == "2026-11-30")
    }

    /// Characters YAML gives meaning to, and a few that are plain.
    static let yamlCharacter = Gen<Character?>.element(of: Array("ab1 :-[]{},\"'#&*!|>%@`\n\té?") as [Character])
        .map { $0 ?? " " }

    /// Any text: a mapping, or one line of refusal that names the file.
    @Test func anyTextIsAMappingOrOneLineNamingTheFile() async {
        await propertyCheck(count: 400, input: Self.yamlCharacter.string(of: 0...80)) { text in
            do {
                _ = try top(text)
            } catch let failure as Failure {
                #expect(failure.code == .pipelineFile)
                #expect(!"\(failure)".contains("\n"), "\(text.debugDescription): \(failure)")
                #expect("\(failure)".hasPrefix(file.path), "\(text.debugDescription): \(failure)")
            } catch {
                Issue.record("\(text.debugDescription): not a Failure: \(error)")
            }
        }
    }
}
