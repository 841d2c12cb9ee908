import FoodModel
import Foundation

/// Estimates a dish's nutrients from the lines of its recipe: each line matched to a reference
/// food and weighed, the foods' amounts per 100 g summed over the grams, and the sum divided by
/// the weight of the matched lines less the cooking loss the source states. The amounts are
/// per 100 g of what was matched: unmatched lines are left out of both the sum and the weight,
/// and `matchedShare` says how much of the dish that was.
public struct RecipeEstimator: Sendable {
    public let matcher: IngredientMatcher

    public init(matcher: IngredientMatcher) {
        self.matcher = matcher
    }

    /// A catalogue recipe (TheMealDB): its parsed measures weighed through the matched food's
    /// household measures. The source gives no servings, so there is no serving's weight.
    public func estimate(_ recipe: Recipe) -> NutritionEstimate {
        var lines: [EstimateLine] = []
        var sums = NutrientSums()
        for ingredient in recipe.ingredients {
            var line = EstimateLine(position: ingredient.position, name: ingredient.ingredient.name, code: .unmatchedName,
                                    measure: ingredient.measure.raw)
            switch matcher.match(ingredient.ingredient.name) {
            case .success(let match):
                line.record(match)
                switch MeasureGrams.grams(of: ingredient.measure, food: match.food) {
                case .success(let conversion):
                    line.grams = conversion.grams
                    line.gramsFrom = conversion.how
                    sums.add(match.food.nutrients, grams: conversion.grams)
                case .failure(let unconverted):
                    line.fail(unconverted.code, unconverted.reason)
                }
            case .failure(let unmatched):
                line.fail(unmatched.code, unmatched.reason)
                if case .success(let conversion) = MeasureGrams.weighedAlone(ingredient.measure) {
                    line.grams = conversion.grams
                    line.gramsFrom = conversion.how
                }
            }
            lines.append(line)
        }
        return sums.estimate(subject: recipe.id.description, reference: matcher.reference.name, lines: lines,
                             cookingLoss: 0, servingGrams: nil)
    }

    /// A kitchen's recipe document (UCLA): rows weighed in lb, oz, kg or g; a sub-recipe row
    /// counts with its own document's label per 100 g, else its own estimate when that covers at
    /// least `subRecipeShare` of its weight, else its name is matched like an ingredient's.
    /// Nil for a food without weighed rows.
    public func estimate(_ food: Food, among foods: [FoodID: Food]) -> NutritionEstimate? {
        var visiting: Set<FoodID> = []
        return estimate(food, among: foods, visiting: &visiting)
    }

    /// A sub-recipe's own estimate stands in for it only when it is nearly whole.
    public static let subRecipeShare = 0.9

    private func estimate(_ food: Food, among foods: [FoodID: Food], visiting: inout Set<FoodID>) -> NutritionEstimate? {
        let rows = food.components.enumerated().filter { !$0.element.isHeading }
        guard rows.contains(where: { ($0.element.amount ?? 0) > 0 }) else { return nil }
        visiting.insert(food.id)
        defer { visiting.remove(food.id) }
        var lines: [EstimateLine] = []
        var sums = NutrientSums()
        for (index, row) in rows {
            var line = EstimateLine(position: index + 1, name: row.name, code: .unmatchedName,
                                    measure: row.amount.map { Self.written($0, row.unit) })
            guard let amount = row.amount, let unit = row.unit else {
                line.fail(.noAmount, "no amount")
                lines.append(line)
                continue
            }
            switch MeasureGrams.weight(amount, unit: unit) {
            case .failure(let unconverted):
                line.fail(unconverted.code, unconverted.reason)
            case .success(let conversion):
                line.grams = conversion.grams
                line.gramsFrom = conversion.how
                if let per100g = subRecipe(row.food, among: foods, visiting: &visiting, line: &line)
                    ?? byName(row, line: &line) {
                    sums.add(per100g, grams: conversion.grams)
                }
            }
            lines.append(line)
        }
        return sums.estimate(subject: food.id.description, reference: matcher.reference.name, lines: lines,
                             cookingLoss: food.cookingLossPercent ?? 0, servingGrams: food.servingGrams)
    }

    /// A row matched by its name like an ingredient's. A sub-recipe comes here when its document
    /// was not read (or gives neither a label nor a nearly whole estimate): the kitchen's name for
    /// it ("Whole Wheat Bread") still says what it is, and the line says it was matched so.
    private func byName(_ row: FoodComponent, line: inout EstimateLine) -> [NutrientKey: Double]? {
        switch matcher.match(row.name) {
        case .success(let match):
            line.record(match)
            if row.isSubRecipe {
                line.matchedBy = Self.subRecipeByName + ", " + match.rule
                line.code = .subRecipeByName
            }
            return match.food.nutrients
        case .failure(let unmatched) where row.isSubRecipe && unmatched.code == .unmatchedName:
            line.fail(.subRecipeUnmatched, "a sub-recipe with no document, label or whole estimate to count by, "
                      + "and by its name: " + unmatched.reason)
            return nil
        case .failure(let unmatched):
            line.fail(unmatched.code, unmatched.reason)
            return nil
        }
    }

    /// How a line says its sub-recipe was matched by name, before the rule that matched it.
    static let subRecipeByName = "sub-recipe matched by name"

    /// A row's amount as the document gives it ("0.089 lb"), not rounded.
    static func written(_ amount: Double, _ unit: String?) -> String {
        [String(format: "%g", amount), unit].compactMap { $0 }.joined(separator: " ")
    }

    /// A sub-recipe's amounts per 100 g: its printed label per 100 g, else its estimate when
    /// nearly whole; nil when it has neither (or is a recipe already being estimated, a cycle).
    private func subRecipe(_ id: FoodID?, among foods: [FoodID: Food], visiting: inout Set<FoodID>,
                           line: inout EstimateLine) -> [NutrientKey: Double]? {
        guard let id, let food = foods[id], !visiting.contains(id) else { return nil }
        if food.labelBasis == .hundredGrams, food.nutrients.contains(where: { ($0.amount ?? 0) > 0 }) {
            line.matchId = id.description
            line.matchName = food.name
            line.matchScore = 1
            line.matchedBy = "sub-recipe label"
            line.code = .subRecipeDocument
            // Only in the unit the estimate keeps: a label's amount in another unit is left out.
            let units = Dictionary(uniqueKeysWithValues: ReferenceNutrients.all.map { ($0.key, $0.unit) })
            return Dictionary(food.nutrients.compactMap { nutrient in
                guard let amount = nutrient.amount, units[nutrient.key] == nutrient.unit else { return nil }
                return (nutrient.key, amount)
            }, uniquingKeysWith: { first, _ in first })
        }
        guard let own = estimate(food, among: foods, visiting: &visiting), own.reason == nil,
              own.matchedShare >= Self.subRecipeShare else { return nil }
        line.matchId = id.description
        line.matchName = food.name
        line.matchScore = own.matchedShare
        line.matchedBy = "sub-recipe estimate"
        line.code = .subRecipeDocument
        return Dictionary(own.nutrients.map { ($0.key, $0.amountPer100g) }, uniquingKeysWith: { first, _ in first })
    }
}

extension EstimateLine {
    mutating func record(_ match: IngredientMatcher.Match) {
        matchId = match.food.id
        matchName = match.food.name
        matchScore = match.score
        matchedBy = match.rule
        code = match.rule == IngredientMatcher.overrideRule ? .override : .matched
    }

    /// The line counts for nothing, for this reason.
    mutating func fail(_ code: Code, _ reason: String) {
        self.code = code
        self.reason = reason
    }
}

/// The nutrients of the matched lines, summed over their grams.
struct NutrientSums {
    private var totals: [NutrientKey: Double] = [:]
    private var grams = 0.0

    mutating func add(_ per100g: [NutrientKey: Double], grams lineGrams: Double) {
        grams += lineGrams
        for entry in ReferenceNutrients.all {
            if let amount = per100g[entry.key] { totals[entry.key, default: 0] += amount * lineGrams / 100 }
        }
    }

    func estimate(subject: String, reference: String, lines: [EstimateLine], cookingLoss: Double,
                  servingGrams: Double?) -> NutritionEstimate {
        let converted = lines.compactMap(\.grams).reduce(0, +)
        let loss = cookingLoss.isFinite && cookingLoss >= 0 && cookingLoss < 100 ? cookingLoss : 0
        let cooked = grams * (1 - loss / 100)
        let nutrients = cooked > 0 ? ReferenceNutrients.all.compactMap { entry in
            totals[entry.key].map { EstimatedNutrient(key: entry.key, amountPer100g: $0 / cooked * 100, unit: entry.unit) }
        } : []
        let reasonCode: NutritionEstimate.ReasonCode? = grams > 0 ? nil : lines.isEmpty ? .noLines : .nothingCounted
        let reason: String? = switch reasonCode {
        case nil: nil
        case .noLines?: NutritionEstimate.ReasonCode.noLines.summary
        case .nothingCounted?: NutritionEstimate.ReasonCode.nothingCounted.summary + " (\(lines.count) line(s): "
            + (lines.first { $0.reason != nil }?.reason ?? "") + (lines.count > 1 ? ", ..." : "") + ")"
        }
        return NutritionEstimate(subjectId: subject, reference: reference, lines: lines, nutrients: nutrients,
                                 convertedGrams: converted, matchedGrams: grams, cookingLossPercent: loss,
                                 servingGrams: servingGrams, reason: reason, reasonCode: reasonCode)
    }
}
