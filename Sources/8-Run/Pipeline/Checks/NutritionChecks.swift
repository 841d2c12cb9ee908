import Basics
import FoodModel
import Nutrition
import Snapshot

/// The nutrition checks of a run: printed %DV against amounts under the pipeline's standard,
/// units the standard cannot convert, each food's label against itself, its %DV per serving
/// against what any real food reaches (`DailyValueCeiling`), and labels read with no nutrient.
///
/// A bad label is an error for that food (a `food_flag` row), not for the run: the run-level
/// outcomes are warnings, so one mistyped label never holds back a night's menus.
struct NutritionChecks {
    /// Below this share of agreeing printed %DV for a nutrient, the run warns: the source may
    /// have changed its daily values, or the pipeline names the wrong standard. Every one of
    /// the 37,037 items of the 2016 UCLA dataset agrees under `ucla-label`.
    var minimumAgreement = 0.99
    var limits = NutritionLimits()

    /// The checks a food is flagged by, each an outcome of every review of labels.
    static let flagChecks = ["energy_sanity", "implausible_value", "dv_ceiling", "label_without_nutrients",
                             "portion_mismatch"]
    /// The name of every outcome a review can give, which a night that keeps the last review
    /// takes from the latest snapshot's checks (`StagingSnapshot.keepReview`).
    static let outcomeNames = Set(flagChecks + ["unfilled_label", "dv_agreement", "dv_unconvertible"])

    struct Review {
        var agreements: [NutrientAgreementRow] = []
        var flags: [FoodFlagRow] = []
        var outcomes: [CheckOutcome] = []
    }

    /// `portions`: the portions the menus state for each food (`MenuDigest`), held against the
    /// serving a per-100 g label is scaled to.
    func review(_ foods: [Food], standard: DailyValueStandard?, unfilled: [FoodID] = [],
                portions: [FoodID: Set<String>] = [:]) -> Review {
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
        // Each food is reviewed on its own, so the foods are spread over the cores.
        let findings = foods.mappedOnEveryCore(minimumCount: 256) { food in
            FoodFindings(food, standard: standard, limits: limits, portions: portions[food.id] ?? [])
        }
        if let standard {
            review.agreements = findings.flatMap(\.agreements)
            review.outcomes += agreementOutcomes(review.agreements, standard: standard)
            review.outcomes += unconvertibleOutcome(findings.flatMap(\.unconvertible), standard: standard)
        }
        let flags = findings.flatMap(\.flags)
        review.flags += flags.map {
            FoodFlagRow(foodId: $0.food.description, check: $0.check, nutrientKey: $0.nutrient?.rawValue,
                        message: $0.message)
        }
        if foods.contains(where: { $0.labelBasis != nil || !$0.nutrients.isEmpty }) {
            for check in Self.flagChecks {
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
    /// guessed conversion would publish a wrong %DV. `amounts` names one per amount.
    private func unconvertibleOutcome(_ amounts: [String], standard: DailyValueStandard) -> [CheckOutcome] {
        guard !amounts.isEmpty else { return [] }
        let counts = Dictionary(amounts.map { ($0, 1) }, uniquingKeysWith: +)
        return [CheckOutcome(
            name: "dv_unconvertible", severity: .warning, passed: false, value: Double(amounts.count),
            message: "no %DV for \(amounts.count) amount(s) under \(standard.name): "
                + counts.sorted { $0.key < $1.key }.map { "\($0.key) × \($0.value)" }.joined(separator: ", "))]
    }
}

/// What the review finds on one food: its %DV agreements, its flags, and the amounts the standard
/// cannot convert (as the warning names them).
private struct FoodFindings: Sendable {
    var agreements: [NutrientAgreementRow] = []
    var flags: [FoodFlag]
    var unconvertible: [String] = []

    init(_ food: Food, standard: DailyValueStandard?, limits: NutritionLimits, portions: Set<String>) {
        flags = FoodReview.flags(for: food, limits: limits)
        if let mismatch = PortionMismatch.flag(for: food, servedAt: portions) { flags.append(mismatch) }
        if food.labelBasis != nil, food.nutrients.isEmpty {
            flags.append(FoodFlag(food: food.id, check: "label_without_nutrients",
                                  message: "the label was read (per \(food.labelBasis?.rawValue ?? "")) but gave no "
                                      + "nutrient: its layout may have changed"))
        }
        flags += DailyValueCeiling.flags(for: food)
        guard let standard else { return }
        agreements = food.nutrients.compactMap { standard.agreement(of: $0, basis: food.labelBasis) }.map { agreement in
            NutrientAgreementRow(
                foodId: food.id.description, nutrientKey: agreement.nutrient.rawValue,
                standard: standard.name, printedPercent: agreement.printedPercent,
                declaredPercent: agreement.percentFromDeclared,
                unroundedLow: agreement.unroundedAmounts.lowerBound,
                unroundedHigh: agreement.unroundedAmounts.upperBound,
                agreesFromDeclared: agreement.agreesFromDeclared,
                agreesFromUnrounded: agreement.agreesFromUnrounded)
        }
        unconvertible = standard.unconvertible(in: food).compactMap { nutrient, reason in
            guard case .unconvertible(let unit, let standardUnit) = reason else { return nil }
            return "\(nutrient.key) in \(unit) (the standard uses \(standardUnit.rawValue))"
        }
    }
}
