import Foundation
@testable import SourceAdapters
import Testing

/// The Swift-native trimming replaced Foundation's; Foundation stays here as the specification.
@Suite struct ScalarTrimmingTests {
    @Test func theScalarSetsAreFoundationsScalarForScalar() {
        for value in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            #expect(scalar.isWhitespaceOrNewline == CharacterSet.whitespacesAndNewlines.contains(scalar), "U+\(String(value, radix: 16))")
            #expect(scalar.isSpaceOrTab == CharacterSet.whitespaces.contains(scalar), "U+\(String(value, radix: 16))")
        }
    }

    static let awkward = [
        "", " ", "\r\n", "plain", "  both  ", "\u{00A0}nbsp\u{3000}", "\u{2028}line separator\u{0085}",
        "STEP 1\r\n\r\nMix the flour.\rBake.\n\n  step 2 -  Rest  \r\n▢ Serve\t\n3.\n\u{0B}vertical tab\u{0C}",
        "Soup, Cheesy ,, Halloween,", "\u{200B}zero width\u{200B}", " e\u{301} , \u{301}x ",
    ]

    @Test func fieldsTrimAsFoundationTrimmedThem() {
        for text in Self.awkward {
            #expect(text.trimmingWhitespaceAndNewlines == text.trimmingCharacters(in: .whitespacesAndNewlines),
                    "\(text.debugDescription)")
        }
    }

    @Test func stepsAndTagsOfAwkwardTextAreAsBefore() {
        for text in Self.awkward {
            #expect(RecipeMapping.steps(from: text) == Self.foundationSteps(text), "\(text.debugDescription)")
            #expect(RecipeMapping.tags(from: text) == Self.foundationTags(text), "\(text.debugDescription)")
        }
        // Read by hand from the sample above: markers alone dropped, a title kept, vertical tab
        // and form feed are not `.whitespaces`.
        #expect(RecipeMapping.steps(from: Self.awkward[7])
                == ["Mix the flour.", "Bake.", "Rest", "▢ Serve", "\u{0B}vertical tab\u{0C}"])
    }

    /// Every meal of the real dump maps to the same steps and tags as with Foundation.
    @Test func theRealDumpMapsAsBefore() throws {
        let root = try JSONSerialization.jsonObject(with: TestData.data(TestData.dumpURL))
        let meals = try #require((root as? [String: Any])?["meals"] as? [[String: Any]])
        #expect(meals.count == 442)
        for meal in meals {
            let instructions = meal["strInstructions"] as? String
            let tags = meal["strTags"] as? String
            #expect(RecipeMapping.steps(from: instructions) == Self.foundationSteps(instructions))
            #expect(RecipeMapping.tags(from: tags) == Self.foundationTags(tags))
        }
    }

    /// The implementation this replaced, kept as the specification.
    static func foundationSteps(_ instructions: String?) -> [String] {
        guard let instructions else { return [] }
        return instructions
            .replacingOccurrences(of: "\r\n", with: "\n")
            .replacingOccurrences(of: "\r", with: "\n")
            .split(separator: "\n", omittingEmptySubsequences: true)
            .compactMap { line in
                let text = RecipeMapping.withoutStepHeader(line.trimmingCharacters(in: .whitespaces))
                guard text.contains(where: { $0.isLetter }) else { return nil }
                return text
            }
    }

    static func foundationTags(_ text: String?) -> [String] {
        guard let text else { return [] }
        var seen: Set<String> = []
        return text.split(separator: ",")
            .map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
            .filter { !$0.isEmpty && seen.insert($0).inserted }
    }
}
