import Basics
import FoodModel
import Foundation
import HTML
import Nutrition
import SourceReading

/// A CBORD NetNutrition nutrition label, the HTML its `NutritionDetail/ShowItemNutritionLabel`
/// answers for one item (Sources/1-Sources/SourceAdapters/NetNutrition/README.md): the item's name in the label header, the
/// serving size, calories, one line per nutrient with its amount and printed %DV, ingredients and
/// the "Contains" allergens.
///
/// Institutions run different versions of it, laid out in two ways seen so far:
/// - in divs (Duke): a line's `inline-div-left` holds the name and the amount in spans, its
///   `inline-div-right` the printed %DV (or, on the calories line, the calories);
/// - in nested tables (UIUC): the amount is an element of its own class
///   (`cbo_nn_SecondaryNutrient`, `cbo_nn_LabelPrimaryDetailIncomplete`, ...), the name the text
///   around it in its line, the %DV a cell of its own class.
///
/// Both are read by their classes and the text of the names, never by position: institutions
/// configure which nutrients their labels show and in which order. An amount printed as "NA" is
/// kept as printed. Every page read is a label per serving, even one that yielded no nutrient,
/// so that the checks can report it rather than take it for a food without a label.
public enum NetNutritionLabel {
    public static let sourceName = "netnutrition"

    /// A label read and its units judged, with what was changed from the label as printed.
    public struct Reading {
        public var food: Food
        /// One line for each value left out and each nutrient read in another unit than printed.
        public var problems: [String]
    }

    /// The label as `parse` reads it, each unit judged on its amount (`LabelUnits`): a unit a
    /// kitchen set up wrongly ("Vitamin D 2.5mg", 12,500% of the daily value) is read in the
    /// unit its amount fits, and an amount no unit fits is left out, each said in a line.
    public static func read(_ data: Data, itemId: String, url: String, charset: String?) throws -> Reading {
        let printed = try parse(data, itemId: itemId, url: url, charset: charset)
        let judged = LabelUnits([printed]).read(printed, place: "\(url): \(printed.name)")
        let reread = judged.reread.sorted { $0.key.rawValue < $1.key.rawValue }.map { key, units in
            "\(url): \(printed.name): \(key) printed in \(units.declared), read in \(units.read): the amount is more than a "
                + "serving of any food holds in the unit printed"
        }
        return Reading(food: judged.food, problems: judged.leftOut + reread)
    }

    /// The label as printed: every amount in the unit beside it.
    public static func parse(_ data: Data, itemId: String, url: String, charset: String?) throws -> Food {
        try withPage(data, url: url, charset: charset) { page in
            guard let name = try page.first(anywhere("td", class: "cbo_nn_LabelHeader"))?.text.nonEmpty else {
                throw Failure.badInput("no item name (td.cbo_nn_LabelHeader): not a NetNutrition label", at: url)
            }
            var food = Food(id: FoodID(source: sourceName, recipeId: itemId), name: name, labelBasis: .serving)
            food.servingSize = try servingSize(in: page)
            food.serving = food.servingSize.flatMap(ServingSize.init(printed:))
            let splitLines = "//*[\(anyClass(lineClasses))][.//*[\(XPathPredicate.hasClass("inline-div-left"))]]"
            for element in try page.select("\(splitLines) | //*[\(anyClass(amountClasses))]") {
                let read = try isAmount(element) ? tableNutrient(around: element) : splitNutrient(element)
                guard let nutrient = read, !food.nutrients.contains(where: { $0.key == nutrient.key }) else { continue }
                food.nutrients.append(nutrient)
            }
            food.calories = food.nutrients.first { $0.key == .calories }?.amount
            food.ingredients = try page.first(anywhere("span", class: "cbo_nn_LabelIngredients"))?.text.nonEmpty
            if let allergens = try page.first(anywhere("span", class: "cbo_nn_LabelAllergens"))?.text {
                food.allergens = allergens.split(separator: ",").map { String($0).whitespaceNormalized }
                    .filter { !$0.isEmpty }.uniquedInOrder()
                food.codes = food.allergens
            }
            return food
        }
    }

    /// Whether the document ends inside the label's table, so that it was cut short: CBORD
    /// answers a label as one table, closed at its end after the footnote, ingredients and
    /// allergens, and every table inside it closed too; a document that opens more tables than
    /// it closes stopped while the label was still being written. The rows after the cut are
    /// lost, not absent: an institution that shows fewer nutrients leaves them out of a whole
    /// table, which closes. Counted in the bytes, since the HTML parser closes whatever the
    /// document leaves open. A label cut before its name is no label at all (`parse` says so).
    public static func endsInsideTable(_ data: Data) -> Bool {
        let name = Array("table".utf8)
        var open = 0
        data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
            var index = 0
            while let start = bytes[index...].firstIndex(of: UInt8(ascii: "<")) {
                var at = start + 1
                let closing = at < bytes.count && bytes[at] == UInt8(ascii: "/")
                if closing { at += 1 }
                index = at
                guard at + name.count <= bytes.count,
                      zip(bytes[at..<(at + name.count)], name).allSatisfy({ $0 | 0x20 == $1 }) else { continue }
                let after = at + name.count
                // `<tablex` is another tag; the data ending right after the name is a tag cut short.
                guard after == bytes.count || [UInt8(ascii: ">"), UInt8(ascii: "/"), UInt8(ascii: " "),
                                               UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r")]
                    .contains(bytes[after]) else { continue }
                open += closing ? -1 : 1
            }
        }
        return open > 0
    }

    /// A nutrient's line in either layout (the calories line, then bordered and unbordered rows).
    private static let lineClasses = ["cbo_nn_LabelSubHeader", "cbo_nn_LabelBorderedSubHeader",
                                      "cbo_nn_LabelNoBorderSubHeader"]
    /// What holds an amount in the table layout: the macronutrients' amounts and the vitamins'
    /// percentages. The `Incomplete` classes style a value CBORD marks as incomplete ("NA", or a
    /// figure the kitchen's data covers only in part); it is still the value the label prints.
    private static let amountClasses = ["cbo_nn_SecondaryNutrient", "cbo_nn_SecondaryNutrientIncomplete",
                                        "cbo_nn_LabelPrimaryDetailIncomplete"]
    /// The printed %DV's cell in the table layout.
    private static let dailyValueClasses = ["cbo_nn_LabelLeftPaddedDetail", "cbo_nn_LabelLeftPaddedDetailIncomplete"]

    private static func anyClass(_ names: [String]) -> String {
        names.map(XPathPredicate.hasClass).joined(separator: " or ")
    }

    private static func isAmount(_ node: HTMLNode) -> Bool {
        amountClasses.contains { node.hasClass($0) }
    }

    /// The serving after "Serving Size": Duke prints the words and the serving in two sibling
    /// divs, UIUC both in one cell ("Serving Size:&nbsp;Slice (1/96)&nbsp;(42g)"). The innermost
    /// element holding the words is found, then its ancestors until one holds the serving too.
    private static func servingSize(in page: HTMLDocument) throws -> String? {
        let holdsWords = "contains(translate(., 'SERVINGZ', 'servingz'), 'serving size')"
        guard var element = try page.first("//*[\(holdsWords)][not(*[\(holdsWords)])]") else { return nil }
        while true {
            let text = element.text
            let serving = LabelScanner.withoutServingSizeLabel(text)
            // Text that does not start with the words holds more than the serving line.
            guard serving.startIndex != text.startIndex else { return nil }
            if !serving.isEmpty { return String(serving) }
            guard let parent = try element.first("parent::*") else { return nil }
            element = parent
        }
    }

    /// The divs layout: the `inline-div-left` holds the name and the amount in spans ("Total Fat",
    /// "15g"; "Trans Fat", "NA"), or the added-sugars line in one ("Include NA Added Sugars",
    /// "Includes 2g Added Sugars"), or only the name, when the amount is on the right (the
    /// calories); the `inline-div-right` holds the printed %DV otherwise.
    private static func splitNutrient(_ line: HTMLNode) throws -> NutrientValue? {
        guard let left = try line.first(within("*", class: "inline-div-left")) else { return nil }
        let right = try line.first(within("*", class: "inline-div-right"))?.text ?? ""
        var nutrient: NutrientValue
        let spans = try left.select("./span").map(\.text).filter { !$0.isEmpty }
        if let added = left.text.wholeMatch(of: /(?i)^includes?\s+(?<amount>\S+)\s+added\s+sugars?$/) {
            nutrient = value(name: "Added Sugars", printed: String(added.output.amount))
        } else if spans.count >= 2, let printed = spans.last {
            nutrient = value(name: spans.dropLast().joined(separator: " "), printed: printed)
        } else if spans.count == 1, let name = spans.first, !right.isEmpty, !right.contains("%") {
            return value(name: name, printed: right)
        } else {
            return nil
        }
        nutrient.printedDailyValuePercent = NutritionLabelRow.firstNumber(in: right)
        return nutrient
    }

    /// The table layout: the name and the %DV are what surrounds the amount in its line. The
    /// line is the amount's widest ancestor that holds no other amount and not the item's name,
    /// up to the nutrient's row (`td.cbo_nn_LabelBorderedSubHeader`): "Calories" and "Calories
    /// from Fat" share a row, each in its own cell; a vitamin is a table row of name and
    /// percentage. The name is the line's text without the amount and the %DV, less a trailing
    /// colon ("Vitamin A:"). A blank amount (UIUC's "Vitamin A", "&nbsp;") prints nothing and
    /// gives no nutrient.
    private static func tableNutrient(around amount: HTMLNode) throws -> NutrientValue? {
        let printed = amount.text
        guard !printed.isEmpty else { return nil }
        let enclosed = ".//*[\(anyClass(amountClasses)) or \(XPathPredicate.hasClass("cbo_nn_LabelHeader"))]"
        var line: HTMLNode?
        var next = try amount.first("parent::*")
        while let candidate = next, try candidate.select(enclosed).count == 1 {
            line = candidate
            next = lineClasses.contains(where: candidate.hasClass) ? nil : try candidate.first("parent::*")
        }
        guard let line else { return nil }
        let isDailyValue = { (node: HTMLNode) in dailyValueClasses.contains { node.hasClass($0) } }
        let name = line.text { isAmount($0) || isDailyValue($0) }
            .trimmingCharacters(in: CharacterSet(charactersIn: ":").union(.whitespaces))
        guard !name.isEmpty else { return nil }
        var nutrient = value(name: name, printed: printed)
        if nutrient.printedDailyValuePercent == nil,
           let cell = try line.first(".//*[\(anyClass(dailyValueClasses))]") {
            nutrient.printedDailyValuePercent = NutritionLabelRow.firstNumber(in: cell.text)
        }
        return nutrient
    }

    /// "15g" is 15 g; "0.96mg" 0.96 mg; "17 Gram" 17 Gram; "NA" is printed only; "< 1g" is below
    /// 1 g; "4%" is a printed %DV with no amount; calories printed bare are kcal.
    private static func value(name: String, printed: String) -> NutrientValue {
        let key = NutrientNaming.key(forLabel: name)
        if printed.hasSuffix("%") {
            return NutrientValue(key: key, name: name, amount: nil, unit: nil,
                                 printedDailyValuePercent: NutritionLabelRow.firstNumber(in: printed))
        }
        let unitStart = printed.lastIndex { !$0.isLetter && $0 != "µ" }.map(printed.index(after:)) ?? printed.startIndex
        var amountText = String(printed[..<unitStart])
        var unit: String? = String(printed[unitStart...]).nonEmpty
        if amountText.isEmpty {
            // No digits at all ("NA"): the whole text is the mark, with no unit.
            amountText = printed
            unit = nil
        }
        var nutrient = NutrientValue(key: key, name: name, amount: nil, unit: unit)
        switch PrintedAmount(amountText) {
        case .number(let amount):
            nutrient.amount = amount
            if unit == nil, key == .calories || key == .caloriesFromFat { nutrient.unit = "kcal" }
        case let reading: reading.record(printed, in: &nutrient)
        }
        return nutrient
    }
}
