import FoodModel
import Foundation

/// Reads TheMealDB's free-text measures into exact amounts, never failing: what cannot be read
/// is kept as `unparsed` with its raw text.
///
/// Decisions:
/// - A kitchen measure without a number ("Pinch", "Handful", "Dash") is `unquantified` with its
///   unit kept: the source wrote no number, and reading "Pinch" as "1 pinch" would invent one.
///   With a number ("1 pinch", "2 handfuls") it is a `quantity`.
/// - "Juice of 1/2" is a `count` of 1/2 with unit `juice` (`zest`, `juice and zest` likewise):
///   the number counts fruit, and the unit says which part of it is used.
/// - A dual measure ("175g/6oz", "6oz/180g") or a parenthesised equivalent ("4 tablespoons
///   (55 grams)", "1 (400g) tin") keeps the metric mass or volume: it is the amount the author
///   weighed, while the other is a conversion.
/// - "2-3 tbsp" is a range (2 to 3) but "2-1/2 cups" is the mixed number 5/2, since the part
///   after the hyphen is a fraction below one.
/// - "2 x 400g" and "3 400g cans" multiply to 800 g and 1200 g; a length ("3 x 7.5cm") is the
///   size of each item, so that reads as a count of 3.
public enum MeasureParser {
    public static func parse(_ raw: String?) -> Measure {
        let text = raw?.trimmingWhitespaceAndNewlines ?? ""
        guard !text.isEmpty else { return Measure(raw: nil, kind: .absent, confidence: 1) }
        var reader = MeasureReader(tokens: MeasureLexer.tokens(of: text))
        let reading = reader.read()
        return Measure(raw: text, kind: reading.kind, quantity: reading.quantity,
                       maximum: reading.maximum, unit: reading.unit?.name,
                       unitSystem: reading.unit?.system, confidence: reading.confidence)
    }
}
