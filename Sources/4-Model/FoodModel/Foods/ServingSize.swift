/// A serving's amount and unit read from its printed text, where the text allows: "4 each",
/// "3/4 cup", "1-1/2 ounce", "2.7 oz Portion (77g)" (the unit stops before a bracketed remark, not inside "serving(s)"). Text
/// that does not start with an amount, or whose unit holds digits ("each1.9 oz"), gives nil:
/// the printed text is kept and nothing is guessed.
public struct ServingSize: Hashable, Sendable, Codable {
    public var amount: Double
    public var unit: String

    public init(amount: Double, unit: String) {
        self.amount = amount
        self.unit = unit
    }

    public init?(printed text: String) {
        var rest = Substring(text.trimmingCharacters(in: .whitespacesAndNewlines))
        guard let amount = Self.amount(&rest) else { return nil }
        let unit = String(rest.range(of: " (").map { rest[..<$0.lowerBound] } ?? rest)
            .trimmingCharacters(in: .whitespaces)
        guard amount.isFinite, amount > 0, !unit.isEmpty, !unit.contains(where: \.isNumber),
              unit.first?.isLetter == true
        else { return nil }
        self.init(amount: amount, unit: unit)
    }

    /// Reads a leading amount (`4`, `0.5`, `.5`, `3/4`, `1-1/2`, `1 1/2`) and what follows it.
    static func amount(_ text: inout Substring) -> Double? {
        guard let whole = number(&text) else { return nil }
        var probe = text
        if probe.first == "/" {
            probe = probe.dropFirst()
            guard let denominator = number(&probe), denominator > 0 else { return nil }
            text = probe
            return whole / denominator
        }
        // A mixed number: "1-1/2" or "1 1/2".
        if probe.first == "-" || probe.first == " " {
            probe = probe.dropFirst()
            if let numerator = number(&probe), probe.first == "/" {
                probe = probe.dropFirst()
                if let denominator = number(&probe), denominator > 0, numerator < denominator {
                    text = probe
                    return whole + numerator / denominator
                }
            }
        }
        return whole
    }

    /// Digits with at most one point, ASCII only.
    private static func number(_ text: inout Substring) -> Double? {
        let end = text.firstIndex { !(($0.isASCII && $0.isNumber) || $0 == ".") } ?? text.endIndex
        guard end > text.startIndex, let value = Double(text[..<end]) else { return nil }
        text = text[end...]
        return value
    }

    /// Grams per unit of the weights servings are printed in.
    private static let gramsPerUnit: [String: Double] = [
        "g": 1, "gram": 1, "grams": 1, "gm": 1, "kg": 1000,
        "oz": 28.349523125, "ounce": 28.349523125, "ounces": 28.349523125,
        "lb": 453.59237, "lbs": 453.59237, "pound": 453.59237, "pounds": 453.59237,
    ]

    /// The serving's weight in grams when its unit's first word is a weight ("oz Portion" is
    /// ounces; "fl oz" is a volume and gives nil).
    public var grams: Double? {
        let word = unit.split(whereSeparator: { $0 == " " || $0 == "." }).first.map { $0.lowercased() } ?? ""
        guard let factor = Self.gramsPerUnit[word] else { return nil }
        return amount * factor
    }

    /// The grams a printed serving states in brackets: "Slice (1/96) (42g)", "(77 g)"; the last
    /// such bracket wins. Nil when none does.
    public static func statedGrams(in printed: String) -> Double? {
        // The pattern needs a parenthesis; most servings have none ("2.92 oz"), and matching a
        // Swift regex was 7% of a night of UCLA's feed (perf), asked for every food's grams.
        guard printed.utf8.contains(UInt8(ascii: "(")) else { return nil }
        var found: Double?
        for match in printed.matches(of: /\(\s*(\d+(?:\.\d+)?)\s*(?:g|gm|grams?)\s*\)/.ignoresCase()) {
            if let value = Double(match.output.1), value.isFinite, value > 0 { found = value }
        }
        return found
    }
}
