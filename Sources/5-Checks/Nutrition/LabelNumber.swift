import Foundation

/// Arithmetic on numbers as labels print them.
///
/// Label amounts are short decimals ("2.3 g") that binary floating point cannot hold exactly,
/// and label rounding is all about ties: 100 × 2.3 / 20 is 11.499999999999998 in `Double`,
/// which naive rounding turns into 11 where the decimal 11.5 rounds to 12. Results are snapped
/// to 9 decimal places before rounding: a label number has at most 3 decimals and a daily value
/// at most 1, so a true value is either exactly on a tie or at least 1e-8 away from it, while
/// the floating-point error is near 1e-14.
enum LabelNumber {
    static func snapped(_ value: Double) -> Double {
        guard value.isFinite, abs(value) < 1e6 else { return value }
        return (value * 1e9).rounded() / 1e9
    }

    /// Rounds half away from zero to a multiple of `step`, as labels do.
    static func round(_ value: Double, toMultipleOf step: Double) -> Double {
        snapped(snapped(value / step).rounded(.toNearestOrAwayFromZero) * step)
    }

    static func isMultiple(_ value: Double, of step: Double) -> Bool {
        let quotient = snapped(value / step)
        return quotient == quotient.rounded()
    }

    /// Decimal places of `value` as printed: labels drop trailing zeros ("9g", "0.2g"), so the
    /// shortest decimal that reads back as the same `Double` has the printed digits.
    static func decimals(_ value: Double) -> Int {
        let text = "\(value)"
        guard !text.contains("e"), let point = text.firstIndex(of: ".") else { return 0 }
        let fraction = text[text.index(after: point)...]
        return fraction == "0" ? 0 : fraction.count
    }

    static func text(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : "\(value)"
    }
}
