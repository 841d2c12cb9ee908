import Foundation

/// A nutrient's value as a label or a menu API prints it: a number, or a bound or mark that
/// is not one ("< 1", "0+", "-", "NA"), which must never be stored as a number.
public enum PrintedAmount: Equatable, Sendable {
    case number(Double)
    /// "< 1", "<1": below the number.
    case below(Double)
    /// "0+", "10+": at least the number.
    case atLeast(Double)
    /// "-", "NA", "N/A": not known.
    case unknown
    case unreadable

    public init(_ text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let value = Double(trimmed), value.isFinite, value >= 0 {
            self = .number(value)
        } else if trimmed.hasPrefix("<"), let value = Double(trimmed.dropFirst().trimmingCharacters(in: .whitespaces)),
                  value.isFinite, value > 0 {
            self = .below(value)
        } else if trimmed.hasSuffix("+"), let value = Double(trimmed.dropLast().trimmingCharacters(in: .whitespaces)),
                  value.isFinite, value >= 0 {
            self = .atLeast(value)
        } else if ["-", "--", "na", "n/a"].contains(trimmed.lowercased()) {
            self = .unknown
        } else {
            self = .unreadable
        }
    }

    /// Puts the value into `nutrient`: a number as its amount; anything else as printed, with
    /// its bound. Returns the reading, so a caller can report what it could not read.
    @discardableResult
    public func record(_ printed: String, in nutrient: inout NutrientValue) -> PrintedAmount {
        switch self {
        case .number(let amount): nutrient.amount = amount
        case .below(let bound):
            nutrient.amountBelow = bound
            nutrient.printedAmount = printed
        case .atLeast(let bound):
            nutrient.amountAtLeast = bound
            nutrient.printedAmount = printed
        case .unknown, .unreadable:
            nutrient.printedAmount = printed
        }
        return self
    }
}
