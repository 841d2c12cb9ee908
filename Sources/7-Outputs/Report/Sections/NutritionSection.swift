import Snapshot

/// Calories and sodium per served item, by meal (each item's label of its day), per serving,
/// and the flagged labels. Items whose food's label is flagged are left out of the charts and
/// their numbers, and the charts say so: a 9,591 kcal "serving" stretched every box flat.
enum NutritionSection {
    typealias Counted = [String: [(value: Double, count: Int)]]

    static func html(_ context: ReportContext) throws -> String {
        let labels = try context.queries.servedLabels(context.served)
        let (calories, sodium) = servedValues(labels.filter { !$0.flagged })
        let (flaggedCalories, flaggedSodium) = servedValues(labels.filter(\.flagged))
        guard !calories.isEmpty || !sodium.isEmpty || !flaggedCalories.isEmpty || !flaggedSodium.isEmpty else {
            return HTML.section("nutrition", "Nutrition", HTML.none("No menu item has a label in this snapshot."))
        }
        let flagged = try context.queries.flaggedFoodCount()
        let flags = try context.queries.firstLabelFlags().map { [$0.foodID, $0.name, $0.check, $0.message] }
        return HTML.section("nutrition", "Nutrition", chart(calories, "Calories", "kcal per serving", leftOut: flaggedCalories)
            + chart(sodium, "Sodium", "mg per serving", leftOut: flaggedSodium)
            + "<p>\(flagged) food(s) have flagged labels.</p>"
            + (flags.isEmpty ? "" : HTML.folded(flagged > flags.count ? "the first \(flags.count) flags" : "the flags",
                                                HTML.table(["food", "name", "check", "message"], flags))))
    }

    /// Box plots per meal and their numbers, or a sentence when no label states the value; what
    /// flagged labels state (`leftOut`) is counted below them, never drawn.
    private static func chart(_ values: Counted, _ what: String, _ unit: String, leftOut: Counted) -> String {
        let items = values.keys.sorted().compactMap { meal in Spread(counted: values[meal] ?? []).map { (meal, $0) } }
        let flagged = leftOut.values.joined()
        let note = flagged.isEmpty ? "" : "<p>Left out of the chart and its numbers: "
            + "\(flagged.reduce(0) { $0 + $1.count }) item(s) whose label is flagged, stating up to "
            + "\(HTML.number(flagged.map(\.value).max() ?? 0)) \(HTML.escape(unit)) (the flags are listed below).</p>"
        guard !items.isEmpty else { return HTML.none("No served item's unflagged label states its \(what.lowercased()).") + note }
        let title = "\(what) per item, by meal" + (flagged.isEmpty ? "" : " (flagged labels left out)")
        return RangeChart.draw(title: title, description: "Minimum, quartiles, median and maximum "
            + "of \(what.lowercased()) per served item, per meal", category: "meal", items: items, unit: unit)
            + HTML.table(["meal", "items", "min", "25%", "median", "75%", "max"], items.map { meal, spread in
                [meal, "\(spread.count)", HTML.number(spread.minimum), HTML.number(spread.lowerQuartile),
                 HTML.number(spread.median), HTML.number(spread.upperQuartile), HTML.number(spread.maximum)]
            }, numeric: [1, 2, 3, 4, 5, 6]) + note
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
