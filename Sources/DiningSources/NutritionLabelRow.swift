/// One printed label line split into name, amount and unit: "Total Fat 21.3g" →
/// ("Total Fat", 21.3, "g"). A line without a trailing amount keeps its text as the name.
struct NutritionLabelRow: Hashable {
    var name: String
    var amount: Double?
    var unit: String?

    /// Built once: a regex literal written inside `init` is rebuilt from its source on every
    /// call, and this one runs for every row of every label. `nonisolated(unsafe)` because
    /// `Regex` is not declared `Sendable`, yet a literal without custom components is safe to
    /// share between threads: its program is compiled lazily behind an atomic initialisation
    /// (kept when the conformance was backed out, swift-experimental-string-processing #474),
    /// and matching never mutates it.
    nonisolated(unsafe) private static let pattern =
        /^(?<name>.*?)\s*(?<amount>\d+(?:\.\d+)?|\.\d+)\s*(?<unit>[A-Za-zµ]+)?$/

    init(_ text: String) {
        guard let match = text.wholeMatch(of: Self.pattern), let amount = Double(match.output.amount),
              !match.output.name.isEmpty
        else {
            name = text
            return
        }
        name = String(match.output.name)
        self.amount = amount
        unit = match.output.unit.map(String.init)
    }

    /// The first number in a printed percentage or count ("33%", "Calories 459"): digits, and a
    /// fraction only when a digit follows the point. Scanned by hand rather than with a regex
    /// because it runs several times per label; labels print ASCII digits.
    static func firstNumber(in text: String) -> Double? {
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
