import FoodModel
import Nutrition
import Snapshot

/// The nutrition checks of a run: printed %DV against amounts under the pipeline's standard,
/// units the standard cannot convert, and each food's label against itself.
///
/// A bad label is an error for that food (a `food_flag` row), not for the run: the run-level
/// outcomes are warnings, so one mistyped label never holds back a night's menus.
struct NutritionChecks {
    /// Below this share of agreeing printed %DV for a nutrient, the run warns: the source may
    /// have changed its daily values, or the pipeline names the wrong standard. Every one of
    /// the 37,037 items of the 2016 UCLA dataset agrees under `ucla-label`.
    var minimumAgreement = 0.99
    var limits = NutritionLimits()

    struct Review {
        var agreements: [NutrientAgreementRow] = []
        var flags: [FoodFlagRow] = []
        var outcomes: [CheckOutcome] = []
    }

    func review(_ foods: [Food], standard: DailyValueStandard?, unfilled: [FoodID] = []) -> Review {
        var review = Review()
        review.flags = unfilled.map {
            FoodFlagRow(foodId: $0.description, check: "unfilled_label", nutrientKey: nil,
                        message: "every declared amount is 0: a label nobody filled in, kept without amounts")
        }
        if let first = unfilled.first {
            review.outcomes.append(CheckOutcome(
                name: "unfilled_label", severity: .warning, passed: false, value: Double(unfilled.count),
                message: "\(unfilled.count) food(s) print a label of zeros, kept without amounts (first: \(first))"))
        }
        let foods = foods.sorted { $0.id < $1.id }
        if let standard {
            review.agreements = foods.flatMap { food in
                food.nutrients.compactMap { standard.agreement(of: $0) }.map { agreement in
                    NutrientAgreementRow(
                        foodId: food.id.description, nutrientKey: agreement.nutrient.rawValue,
                        standard: standard.name, printedPercent: agreement.printedPercent,
                        declaredPercent: agreement.percentFromDeclared,
                        unroundedLow: agreement.unroundedAmounts.lowerBound,
                        unroundedHigh: agreement.unroundedAmounts.upperBound,
                        agreesFromDeclared: agreement.agreesFromDeclared,
                        agreesFromUnrounded: agreement.agreesFromUnrounded)
                }
            }
            review.outcomes += agreementOutcomes(review.agreements, standard: standard)
            review.outcomes += unconvertibleOutcome(foods, standard: standard)
        }
        let flags = foods.flatMap { FoodReview.flags(for: $0, limits: limits) }
        review.flags += flags.map {
            FoodFlagRow(foodId: $0.food.description, check: $0.check, nutrientKey: $0.nutrient?.rawValue,
                        message: $0.message)
        }
        if foods.contains(where: { !$0.nutrients.isEmpty }) {
            for check in ["energy_sanity", "implausible_value"] {
                let flagged = flags.filter { $0.check == check }
                let first = flagged.first.map { "; first: \($0.food) \($0.message)" } ?? ""
                review.outcomes.append(CheckOutcome(
                    name: check, severity: .warning, passed: flagged.isEmpty, value: Double(flagged.count),
                    message: flagged.isEmpty ? "no food's label fails \(check)"
                        : "\(Set(flagged.map(\.food)).count) food(s) flagged\(first)"))
            }
        }
        return review
    }

    /// One outcome per nutrient that has printed %DV: the share that agrees either lawful way.
    private func agreementOutcomes(_ rows: [NutrientAgreementRow], standard: DailyValueStandard) -> [CheckOutcome] {
        Dictionary(grouping: rows, by: \.nutrientKey).sorted { $0.key < $1.key }.map { key, rows in
            let agreeing = rows.filter { $0.agreesFromDeclared || $0.agreesFromUnrounded }.count
            let naive = rows.filter(\.agreesFromDeclared).count
            let rate = Double(agreeing) / Double(rows.count)
            return CheckOutcome(
                name: "dv_agreement", severity: .warning, passed: rate >= minimumAgreement, value: rate,
                message: "\(key): \(agreeing) of \(rows.count) printed %DV agree with the amount under "
                    + "\(standard.name) (\(naive) from the printed amount alone)")
        }
    }

    /// Nutrients the standard has a value for but in a unit it cannot convert: reported, since a
    /// guessed conversion would publish a wrong %DV.
    private func unconvertibleOutcome(_ foods: [Food], standard: DailyValueStandard) -> [CheckOutcome] {
        var counts: [String: Int] = [:]
        for food in foods {
            for (nutrient, reason) in standard.unconvertible(in: food) {
                guard case .unconvertible(let unit, let standardUnit) = reason else { continue }
                counts["\(nutrient.key) in \(unit) (the standard uses \(standardUnit.rawValue))", default: 0] += 1
            }
        }
        guard !counts.isEmpty else { return [] }
        let total = counts.values.reduce(0, +)
        return [CheckOutcome(
            name: "dv_unconvertible", severity: .warning, passed: false, value: Double(total),
            message: "no %DV for \(total) amount(s) under \(standard.name): "
                + counts.sorted { $0.key < $1.key }.map { "\($0.key) × \($0.value)" }.joined(separator: ", "))]
    }
}
