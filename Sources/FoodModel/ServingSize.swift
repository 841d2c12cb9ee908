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
}
