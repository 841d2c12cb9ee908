import Foundation
@testable import SourceAdapters
import Testing

/// ASCII measures are lexed byte by byte; the reading by `Character` is the specification.
@Suite struct MeasureLexerTests {
    /// Every measure of the real dump, lexed both ways.
    @Test func everyRealMeasureLexesAsByCharacter() throws {
        let root = try JSONSerialization.jsonObject(with: TestData.data(TestData.dumpURL))
        let meals = try #require((root as? [String: Any])?["meals"] as? [[String: Any]])
        var measures = 0
        for meal in meals {
            for position in 1...20 {
                guard let measure = meal["strMeasure\(position)"] as? String else { continue }
                #expect(MeasureLexer.tokens(of: measure) == MeasureLexer.tokensByCharacter(of: measure),
                        "\(measure.debugDescription)")
                measures += 1
            }
        }
        // 442 meals with several measures each (blank slots included).
        #expect(measures > 442 * 5)
    }

    /// Every string of up to four characters over an alphabet of each kind of ASCII character
    /// the lexer tells apart (digits, letters of both cases, dot, slash, hyphen, the whitespace
    /// bytes, `\r\n`, other punctuation), and a non-ASCII Kelvin sign that lowercases to ASCII.
    @Test func everyShortASCIIStringLexesAsByCharacter() {
        let alphabet = ["1", "0", "9", "a", "Z", "x", ".", "/", "-", " ", "\t", "\r\n", "\u{0B}", "(", "#", "\u{212A}"]
        var strings = [""]
        var checked = 0
        for _ in 1...4 {
            strings = strings.flatMap { prefix in alphabet.map { prefix + $0 } }
            for text in strings {
                #expect(MeasureLexer.tokens(of: text) == MeasureLexer.tokensByCharacter(of: text), "\(text.debugDescription)")
                checked += 1
            }
        }
        #expect(checked == 16 + 16 * 16 + 16 * 16 * 16 + 16 * 16 * 16 * 16)
    }

    @Test func longDigitRunsAreUnreadableEitherWay() {
        for text in ["1234567 g", "1.23456 kg", "9999999/2"] {
            #expect(MeasureLexer.tokens(of: text).first?.kind == .symbol(MeasureLexer.unreadable), "\(text)")
            #expect(MeasureLexer.tokens(of: text) == MeasureLexer.tokensByCharacter(of: text))
        }
    }
}
