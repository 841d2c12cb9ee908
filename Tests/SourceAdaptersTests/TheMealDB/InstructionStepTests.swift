import Foundation
@testable import SourceAdapters
import Testing

/// The step reader decides most lines on their first bytes; the `Character` reading those
/// shortcuts stand for (`withoutStepHeaderByCharacter`, and `contains(where: isLetter)` here) is
/// the specification.
@Suite struct InstructionStepTests {
    static func specificationContainsLetter(_ text: String) -> Bool {
        text.contains { $0.isLetter }
    }

    /// Beginnings that are, almost are, or only look like a step marker (a long s, a Kelvin sign,
    /// a combining accent on the p), each followed by every string of up to three characters
    /// over marker-like characters: digits, an Arabic-Indic digit, separators, a combining
    /// accent, the Arabic number sign (which joins the next character to it), letters.
    static let beginnings = ["", "step", "STEP", "Step", "sTeP", "ste", "ſtep", "\u{212A}", "step\u{301}", "stepp", "▢"]
    static let alphabet = ["1", "٣", " ", "\t", ":", ".", "-", "–", ")", "\u{301}", "\u{600}", "a", "É", "_"]

    @Test func everyGeneratedLineReadsAsSpecified() {
        var endings = [""]
        var all = [""]
        for _ in 1...3 {
            endings = endings.flatMap { prefix in Self.alphabet.map { prefix + $0 } }
            all += endings
        }
        var checked = 0
        for beginning in Self.beginnings {
            for ending in all {
                let line = beginning + ending
                #expect(RecipeMapping.withoutStepHeader(line) == RecipeMapping.withoutStepHeaderByCharacter(line),
                        "\(line.debugDescription)")
                #expect(RecipeMapping.containsLetter(line) == Self.specificationContainsLetter(line),
                        "\(line.debugDescription)")
                checked += 1
            }
        }
        #expect(checked == Self.beginnings.count * (1 + 14 + 14 * 14 + 14 * 14 * 14))
    }

    /// Every line of every real meal's instructions, as the reader cuts them.
    @Test func everyLineOfTheRealDumpReadsAsSpecified() throws {
        let root = try JSONSerialization.jsonObject(with: TestData.data(TestData.dumpURL))
        let meals = try #require((root as? [String: Any])?["meals"] as? [[String: Any]])
        var lines = 0
        var headers = 0
        for instructions in meals.compactMap({ $0["strInstructions"] as? String }) {
            for line in instructions.unicodeScalars.split(whereSeparator: { $0 == "\n" || $0 == "\r" }) {
                let text = String(line).trimmingCharacters(in: .whitespaces)
                let read = RecipeMapping.withoutStepHeader(text)
                #expect(read == RecipeMapping.withoutStepHeaderByCharacter(text), "\(text.debugDescription)")
                #expect(RecipeMapping.containsLetter(read) == Self.specificationContainsLetter(read))
                lines += 1
                if read != text { headers += 1 }
            }
        }
        // 442 meals of several lines each, and step markers ("STEP 1", "step 1") in about a
        // third of them: the lines that start with "step" must reach the full reading.
        #expect(lines > 442 * 3)
        #expect(headers > 442 / 3)
    }
}
