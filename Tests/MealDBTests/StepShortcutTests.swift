import Foundation
@testable import MealDB
import Testing

/// The step reader decides most lines on their first bytes; the `Character` code those
/// shortcuts stand for is kept here as the specification.
@Suite struct StepShortcutTests {
    static func specificationWithoutStepHeader(_ line: String) -> String {
        let scalars = Array(line)
        let keyword = "step"
        guard scalars.count >= keyword.count,
              String(scalars[0..<keyword.count]).lowercased() == keyword else { return line }
        var index = keyword.count
        while index < scalars.count, scalars[index].isWhitespace { index += 1 }
        let digitsStart = index
        while index < scalars.count, ("0"..."9").contains(scalars[index]) { index += 1 }
        guard index > digitsStart else { return line }
        while index < scalars.count, scalars[index].isWhitespace || ":.-)–".contains(scalars[index]) {
            index += 1
        }
        return String(scalars[index...])
    }

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
                #expect(RecipeMapping.withoutStepHeader(line) == Self.specificationWithoutStepHeader(line),
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
                #expect(read == Self.specificationWithoutStepHeader(text), "\(text.debugDescription)")
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
