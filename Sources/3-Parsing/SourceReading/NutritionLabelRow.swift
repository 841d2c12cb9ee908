/// One printed label line split into name, amount and unit: "Total Fat 21.3g" →
/// ("Total Fat", 21.3, "g"). A line without a trailing amount keeps its text as the name.
public struct NutritionLabelRow: Hashable {
    public var name: String
    public var amount: Double?
    public var unit: String?

    /// Read from the end, since the amount and unit close the line: the unit is the trailing
    /// run of letters, the amount the number before it (`12`, `1.5` or `.5`), and the name what
    /// precedes the whitespace before the amount. This is the match of
    /// `^(?<name>.*?)\s*(?<amount>\d+(?:\.\d+)?|\.\d+)\s*(?<unit>[A-Za-zµ]+)?$` (tested against it),
    /// scanned by hand because it runs for every row of every label; digits are ASCII.
    public init(_ text: String) {
        let characters = Array(text)
        let isDigit = { (character: Character) in character.isASCII && character.isNumber }
        let isUnitLetter = { (character: Character) in (character.isASCII && character.isLetter) || character == "µ" }
        func start(of run: (Character) -> Bool, endingAt end: Int) -> Int {
            var index = end
            while index > 0, run(characters[index - 1]) { index -= 1 }
            return index
        }
        let unitStart = start(of: isUnitLetter, endingAt: characters.count)
        let amountEnd = start(of: \.isWhitespace, endingAt: unitStart)
        let wholeStart = start(of: isDigit, endingAt: amountEnd)
        guard wholeStart < amountEnd else {
            name = text
            return
        }
        var amountStart = wholeStart
        if wholeStart > 0, characters[wholeStart - 1] == "." {
            // "21.3" from its integer part, or ".5" from the point when no digit precedes it.
            amountStart = start(of: isDigit, endingAt: wholeStart - 1)
        }
        let nameEnd = start(of: \.isWhitespace, endingAt: amountStart)
        guard nameEnd > 0, let amount = Double(String(characters[amountStart..<amountEnd])) else {
            name = text
            return
        }
        name = String(characters[..<nameEnd])
        self.amount = amount
        unit = unitStart < characters.count ? String(characters[unitStart...]) : nil
    }

    /// The first number in a printed percentage or count ("33%", "Calories 459"): digits, and a
    /// fraction only when a digit follows the point. Scanned by hand rather than with a regex
    /// because it runs several times per label; labels print ASCII digits.
    public static func firstNumber(in text: String) -> Double? {
        let bytes = text.utf8
        let isDigit = { (byte: UInt8) in (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }
        guard let start = bytes.firstIndex(where: isDigit) else { return nil }
        var end = bytes[start...].firstIndex { !isDigit($0) } ?? bytes.endIndex
        if end < bytes.endIndex, bytes[end] == UInt8(ascii: "."),
           case let fraction = bytes.index(after: end), fraction < bytes.endIndex, isDigit(bytes[fraction]) {
            end = bytes[fraction...].firstIndex { !isDigit($0) } ?? bytes.endIndex
        }
        return Double(text[start..<end])
    }
}
