import FoodModel

/// A per-100 g label is published per serving by the food's own serving (UCLA's recipe portion);
/// where the menus state a portion that weighs less than half or more than twice that, the
/// per-serving figures describe another portion than the one served, and the food is flagged
/// (UCLA's Build-Your-Own Tacos: a 64 oz recipe portion, 3,451 kcal a serving, served at 14.22 oz).
/// The amounts stay as the source states them: which of the two portions is the right one, the
/// source does not say.
public enum PortionMismatch {
    /// How far apart the two weights may be, as a ratio either way.
    public static let maximumRatio = 2.0

    public static func flag(for food: Food, servedAt portions: Set<String>) -> FoodFlag? {
        guard food.labelBasis == .hundredGrams, food.nutrients.contains(where: { $0.amount != nil }),
              let serving = food.servingGrams, serving > 0
        else { return nil }
        // Each portion that is a weight, with how many times heavier or lighter than the serving.
        let apart = portions.compactMap { printed -> (printed: String, grams: Double, ratio: Double)? in
            guard let grams = ServingSize(printed: printed)?.grams, grams > 0 else { return nil }
            return (printed, grams, max(grams / serving, serving / grams))
        }.filter { $0.ratio > maximumRatio }
            // Portions as far apart either way (16 oz and 1 oz of a 4 oz serving) name the
            // heavier: the same flag every run, whatever order the set gives them in.
            .sorted { ($0.ratio, $0.grams, $0.printed) > ($1.ratio, $1.grams, $1.printed) }
        guard let farthest = apart.first else { return nil }
        let others = apart.count > 1 ? " (and \(apart.count - 1) other portion(s) as far apart)" : ""
        return FoodFlag(
            food: food.id, check: "portion_mismatch", nutrient: nil,
            message: "the menus serve it at \(farthest.printed) (\(grams(farthest.grams))), but its per-serving "
                + "amounts are for its own serving, \(food.servingSize.map { "\($0) " } ?? "")(\(grams(serving)))\(others)")
    }

    private static func grams(_ value: Double) -> String {
        "\(LabelNumber.text(LabelNumber.snapped((value * 10).rounded() / 10))) g"
    }
}
