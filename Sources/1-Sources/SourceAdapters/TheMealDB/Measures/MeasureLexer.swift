import FoodModel

/// One piece of a measure string: a number, a lowercased word, or a punctuation mark.
struct MeasureToken: Hashable, Sendable {
    enum Kind: Hashable, Sendable {
        /// `isFraction` marks numbers written as a fraction ("1/2", "½"), which may complete a
        /// mixed number ("1 1/2", "2-1/2", "1½").
        case number(Rational, isFraction: Bool)
        case word(String)
        case symbol(Character)
    }

    var kind: Kind
    /// Whether whitespace came before this token: "14-ounce" glues a size to its unit.
    var spaced: Bool
}

/// Splits a measure into tokens, splitting numbers glued to units ("200g", "1tbsp").
///
/// Numbers are read exactly as rationals ("1.5" is 3/2) and capped in length, so that no
/// arithmetic on them can overflow: a longer run of digits becomes an unreadable mark.
enum MeasureLexer {
    static let unreadable: Character = "#"
    private static let maximumDigits = 6
    private static let maximumDecimals = 4

    private static let vulgarFractions: [Character: (Int, Int)] = [
        "½": (1, 2), "⅓": (1, 3), "⅔": (2, 3), "¼": (1, 4), "¾": (3, 4), "⅕": (1, 5), "⅖": (2, 5),
        "⅗": (3, 5), "⅘": (4, 5), "⅙": (1, 6), "⅚": (5, 6), "⅛": (1, 8), "⅜": (3, 8), "⅝": (5, 8),
        "⅞": (7, 8),
    ]
    /// En and em dashes mean the same as a hyphen in "1 – 14-ounce can"; U+2044 is the fraction slash.
    private static let equivalents: [Character: Character] = ["–": "-", "—": "-", "‑": "-", "⁄": "/"]

    /// An all-ASCII measure (nearly every one) is read byte by byte; any other by `Character`.
    /// In ASCII the two readings are the same (`MeasureLexerTests` compares them), and bytes
    /// spare building a `Character` for every letter.
    static func tokens(of text: String) -> [MeasureToken] {
        let lowered = text.lowercased()
        guard lowered.utf8.allSatisfy({ $0 < 0x80 }) else { return tokensByCharacter(of: lowered) }
        return tokens(in: Array(lowered.utf8))
    }

    /// The reading by `Character`, for text with any non-ASCII character. The two tables above
    /// hold no ASCII character, so ASCII ones skip the lookups: hashing a `Character`
    /// normalizes it first.
    static func tokensByCharacter(of text: String) -> [MeasureToken] {
        tokens(in: Array(text.lowercased()).map { $0.isASCII ? $0 : equivalents[$0] ?? $0 })
    }

    private static func tokens<Unit: MeasureCharacter>(in characters: [Unit]) -> [MeasureToken] {
        var tokens: [MeasureToken] = []
        var index = 0
        var spaced = false
        func emit(_ kind: MeasureToken.Kind) {
            tokens.append(MeasureToken(kind: kind, spaced: spaced))
            spaced = false
        }

        while index < characters.count {
            let character = characters[index]
            if character.isWhitespace {
                spaced = true
                index += 1
            } else if character.isDigit {
                let number = number(in: characters, at: index)
                emit(number.kind)
                index = number.end
            } else if let (numerator, denominator) = character.vulgarFraction,
                      let value = Rational(numerator, denominator) {
                emit(.number(value, isFraction: true))
                index += 1
            } else if character.isLetter {
                var end = index
                while end < characters.count, characters[end].isLetter { end += 1 }
                emit(.word(Unit.text(characters[index..<end])))
                index = end
            } else if character.isDot {
                // Abbreviation dots ("tsp.") carry no meaning.
                index += 1
            } else {
                emit(.symbol(character.character))
                index += 1
            }
        }
        return tokens
    }

    /// The number that starts at `start` (a digit): whole, decimal (`1.5`) or a fraction (`1/2`),
    /// and where it ends; a number that cannot be held (too many digits) is the unreadable mark.
    private static func number<Unit: MeasureCharacter>(in characters: [Unit], at start: Int)
        -> (kind: MeasureToken.Kind, end: Int) {
        func isDigit(_ offset: Int) -> Bool {
            offset < characters.count && characters[offset].isDigit
        }
        func digits(from start: Int) -> (text: String, end: Int) {
            var end = start
            while isDigit(end) { end += 1 }
            return (Unit.text(characters[start..<end]), end)
        }
        let whole = digits(from: start)
        let value: Rational?
        let isFraction: Bool
        var end = whole.end
        if end + 1 < characters.count, characters[end].isDot, isDigit(end + 1) {
            let decimals = digits(from: end + 1)
            end = decimals.end
            (value, isFraction) = (decimal(whole.text, decimals.text), false)
        } else if end + 1 < characters.count, characters[end].isSlash, isDigit(end + 1) {
            let denominator = digits(from: end + 1)
            end = denominator.end
            (value, isFraction) = (fraction(whole.text, denominator.text), true)
        } else {
            (value, isFraction) = (fraction(whole.text, "1"), false)
        }
        return (value.map { .number($0, isFraction: isFraction) } ?? .symbol(unreadable), end)
    }

    fileprivate static func vulgarFraction(_ character: Character) -> (Int, Int)? {
        character.isASCII ? nil : vulgarFractions[character]
    }

    private static func fraction(_ numerator: String, _ denominator: String) -> Rational? {
        guard numerator.count <= maximumDigits, denominator.count <= maximumDigits,
              let top = Int(numerator), let bottom = Int(denominator) else { return nil }
        return Rational(top, bottom)
    }

    private static func decimal(_ whole: String, _ decimals: String) -> Rational? {
        guard whole.count <= maximumDigits, decimals.count <= maximumDecimals,
              let top = Int(whole + decimals) else { return nil }
        var scale = 1
        for _ in decimals { scale *= 10 }
        return Rational(top, scale)
    }
}

extension Rational {
    /// Sum, or nil if it would overflow.
    func adding(_ other: Rational) -> Rational? {
        let (left, o1) = numerator.multipliedReportingOverflow(by: other.denominator)
        let (right, o2) = other.numerator.multipliedReportingOverflow(by: denominator)
        let (top, o3) = left.addingReportingOverflow(right)
        let (bottom, o4) = denominator.multipliedReportingOverflow(by: other.denominator)
        guard !(o1 || o2 || o3 || o4) else { return nil }
        return Rational(top, bottom)
    }

    /// Product, or nil if it would overflow.
    func multiplied(by other: Rational) -> Rational? {
        let (top, o1) = numerator.multipliedReportingOverflow(by: other.numerator)
        let (bottom, o2) = denominator.multipliedReportingOverflow(by: other.denominator)
        guard !(o1 || o2) else { return nil }
        return Rational(top, bottom)
    }

    /// Whether this is a fraction below one, the only kind that can complete a mixed number.
    var isProperFraction: Bool { numerator < denominator }
}

/// What the lexer asks of a unit of text: a `Character`, or a byte of all-ASCII text.
private protocol MeasureCharacter {
    var isWhitespace: Bool { get }
    var isDigit: Bool { get }
    var isLetter: Bool { get }
    var isDot: Bool { get }
    var isSlash: Bool { get }
    var vulgarFraction: (Int, Int)? { get }
    var character: Character { get }
    static func text(_ units: ArraySlice<Self>) -> String
}

extension Character: MeasureCharacter {
    var isDigit: Bool {
        if let ascii = asciiValue { return (0x30...0x39).contains(ascii) }
        return ("0"..."9").contains(self)
    }
    var isDot: Bool { self == "." }
    var isSlash: Bool { self == "/" }
    var vulgarFraction: (Int, Int)? { MeasureLexer.vulgarFraction(self) }
    var character: Character { self }
    static func text(_ units: ArraySlice<Character>) -> String { String(units) }
}

extension UInt8: MeasureCharacter {
    /// Tab, line feed, vertical tab, form feed, carriage return and space: the ASCII characters
    /// `Character.isWhitespace` accepts.
    var isWhitespace: Bool { self == 0x20 || (0x09...0x0D).contains(self) }
    var isDigit: Bool { (0x30...0x39).contains(self) }
    /// The text is lowercased first, so letters are a to z.
    var isLetter: Bool { (0x61...0x7A).contains(self) }
    var isDot: Bool { self == 0x2E }
    var isSlash: Bool { self == 0x2F }
    var vulgarFraction: (Int, Int)? { nil }
    var character: Character { Character(Unicode.Scalar(self)) }
    static func text(_ units: ArraySlice<UInt8>) -> String { String(decoding: units, as: UTF8.self) }
}
