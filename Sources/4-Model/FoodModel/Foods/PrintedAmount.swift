import Foundation

/// A nutrient's value as a label or a menu API prints it: a number, or a bound or mark that
/// is not one ("< 1", "less than 1 gram", "0+", "-", "NA"), which must never be stored as a number.
public enum PrintedAmount: Equatable, Sendable {
    case number(Double)
    /// "< 1", "<1", "less than 1 gram", "Less Than 0.5 g", "less than 1 gram+": below the
    /// number; `unit` is the unit printed with it ("g", "mg", "mcg"), nil when none is.
    case below(Double, unit: String? = nil)
    /// "0+", "10+": at least the number.
    case atLeast(Double)
    /// "-", "NA", "N/A": not known.
    case unknown
    case unreadable

    public init(_ text: String) {
        let trimmed = Self.ungrouped(text.trimmingCharacters(in: .whitespaces))
        if let value = Double(trimmed), value.isFinite, value >= 0 {
            self = .number(value)
        } else if let bound = Self.upperBound(trimmed) {
            self = bound
        } else if trimmed.hasSuffix("+"), let bound = Self.upperBound(trimmed.dropLast().trimmingCharacters(in: .whitespaces)) {
            // "less than 1 gram+" (DineOnCampus): a bound with a mark whose meaning no platform
            // documents; the bound is read, the mark stays in the printed text.
            self = bound
        } else if trimmed.hasSuffix("+"), let value = Double(trimmed.dropLast().trimmingCharacters(in: .whitespaces)),
                  value.isFinite, value >= 0 {
            self = .atLeast(value)
        } else if ["-", "--", "na", "n/a"].contains(trimmed.lowercased()) {
            self = .unknown
        } else {
            self = .unreadable
        }
    }

    /// "1,230" as "1230": labels and menu APIs group the digits of large amounts (a meal's
    /// sodium, a platter's calories) in threes with commas. Only whole groups of three are read
    /// so, and only before any decimal point: "1,5" is no number here, rather than a guess.
    private static func ungrouped(_ text: String) -> String {
        guard text.contains(","), text.wholeMatch(of: /\d{1,3}(,\d{3})+(\.\d+)?\+?/) != nil else { return text }
        return text.replacingOccurrences(of: ",", with: "")
    }

    /// Units a bound's words may name, by the symbol labels print, in powers of ten of a gram.
    private static let massUnits: [String: (symbol: String, exponent: Int)] = [
        "g": ("g", 0), "gram": ("g", 0), "grams": ("g", 0),
        "mg": ("mg", -3), "milligram": ("mg", -3), "milligrams": ("mg", -3),
        "mcg": ("mcg", -6), "µg": ("mcg", -6), "μg": ("mcg", -6), "ug": ("mcg", -6),
        "microgram": ("mcg", -6), "micrograms": ("mcg", -6),
    ]

    /// "< 1", "<1 g", "less than 5 milligrams": the sign or the words, a positive number, then
    /// perhaps a mass unit (a word or its symbol, joined to the number or not).
    private static func upperBound(_ text: String) -> PrintedAmount? {
        let words = "less than"
        var rest: Substring
        if text.hasPrefix("<") {
            rest = text.dropFirst()
        } else if text.lowercased().hasPrefix(words), text.dropFirst(words.count).first?.isWhitespace == true {
            rest = text.dropFirst(words.count)
        } else {
            return nil
        }
        rest = rest.drop(while: \.isWhitespace)
        let digits = rest.prefix { ($0.isASCII && $0.isNumber) || $0 == "." }
        guard let value = Double(digits), value.isFinite, value > 0 else { return nil }
        let unitText = rest[digits.endIndex...].trimmingCharacters(in: .whitespaces).lowercased()
        guard !unitText.isEmpty else { return .below(value) }
        guard let unit = massUnits[unitText] else { return nil }
        return .below(value, unit: unit.symbol)
    }

    /// Puts the value into `nutrient`: a number as its amount; anything else as printed, with
    /// its bound. A bound whose words name a unit is expressed in the nutrient's unit ("less than
    /// 500 milligrams" of a nutrient in grams is below 0.5), or gives it one when it has none; a
    /// unit that cannot be the nutrient's (milligrams of one counted in IU) gives no bound and
    /// reads as unreadable. Returns the reading, so a caller can report what it could not read.
    @discardableResult
    public func record(_ printed: String, in nutrient: inout NutrientValue) -> PrintedAmount {
        switch self {
        case .number(let amount): nutrient.amount = amount
        case .below(let bound, let unit):
            nutrient.printedAmount = printed
            guard let unit else {
                nutrient.amountBelow = bound
                return self
            }
            guard let converted = Self.convert(bound, from: unit, to: nutrient.unit) else { return .unreadable }
            nutrient.amountBelow = converted
            if nutrient.unit == nil { nutrient.unit = unit }
        case .atLeast(let bound):
            nutrient.amountAtLeast = bound
            nutrient.printedAmount = printed
        case .unknown, .unreadable:
            nutrient.printedAmount = printed
        }
        return self
    }

    /// `amount` in the mass unit `symbol` expressed in `unit` ("G", "mg", "µg", as a nutrient
    /// prints it); unchanged when the nutrient has no unit, nil when `unit` is not a mass.
    /// Dividing by a power of ten, rather than multiplying by its inverse, rounds once: 350 mg is
    /// 0.35 g, where 350 × 0.001 would be 0.35000000000000003.
    private static func convert(_ amount: Double, from symbol: String, to unit: String?) -> Double? {
        guard let unit else { return amount }
        guard let from = massUnits[symbol]?.exponent,
              let to = massUnits[unit.trimmingCharacters(in: .whitespaces).lowercased()]?.exponent else { return nil }
        let scale = (0..<abs(from - to)).reduce(1.0) { product, _ in product * 10 }
        return from >= to ? amount * scale : amount / scale
    }
}
