import Snapshot

/// Calories and sodium per served item, by meal (each item's label of its day), per serving,
/// and the flagged labels.
enum NutritionSection {
    typealias Counted = [String: [(value: Double, count: Int)]]

    static func html(_ context: ReportContext) throws -> String {
        let (calories, sodium) = servedValues(try context.queries.servedLabels())
        guard !calories.isEmpty || !sodium.isEmpty else {
            return HTML.section("nutrition", "Nutrition", HTML.none("No menu item has a label in this snapshot."))
        }
        let flagged = try context.queries.flaggedFoodCount()
        let flags = try context.queries.firstLabelFlags().map { [$0.foodID, $0.name, $0.check, $0.message] }
        return HTML.section("nutrition", "Nutrition", chart(calories, "Calories", "kcal per serving")
            + chart(sodium, "Sodium", "mg per serving")
            + "<p>\(flagged) food(s) have flagged labels.</p>"
            + (flags.isEmpty ? "" : HTML.folded(flagged > flags.count ? "the first \(flags.count) flags" : "the flags",
                                                HTML.table(["food", "name", "check", "message"], flags))))
    }

    /// Box plots per meal and their numbers, or a sentence when no label states the value.
    private static func chart(_ values: Counted, _ what: String, _ unit: String) -> String {
        let items = values.keys.sorted().compactMap { meal in Spread(counted: values[meal] ?? []).map { (meal, $0) } }
        guard !items.isEmpty else { return HTML.none("No served item's label states its \(what.lowercased()).") }
        return RangeChart.draw(title: "\(what) per item, by meal", description: "Minimum, quartiles, median and maximum "
            + "of \(what.lowercased()) per served item, per meal", category: "meal", items: items, unit: unit)
            + HTML.table(["meal", "items", "min", "25%", "median", "75%", "max"], items.map { meal, spread in
                [meal, "\(spread.count)", HTML.number(spread.minimum), HTML.number(spread.lowerQuartile),
                 HTML.number(spread.median), HTML.number(spread.upperQuartile), HTML.number(spread.maximum)]
            }, numeric: [1, 2, 3, 4, 5, 6])
    }

    /// Each meal's calories and sodium per serving, a value per label with the number of items
    /// served with it; a label that does not state one is left out of that one's list.
    private static func servedValues(_ labels: [ServedLabel]) -> (calories: Counted, sodium: Counted) {
        var calories: Counted = [:], sodium: Counted = [:]
        for label in labels {
            if let value = label.calories { calories[label.meal, default: []].append((value, label.items)) }
            if let value = label.sodiumMilligrams { sodium[label.meal, default: []].append((value, label.items)) }
        }
        return (calories, sodium)
    }
}
