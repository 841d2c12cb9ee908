/// Nutrients estimated for a dish from what its recipe lists, never printed by its source: each
/// ingredient matched to a food of a nutrition reference (USDA SR24), its amount converted to
/// grams, and the reference's values per 100 g summed. Kept beside, never instead of, a label.
public struct NutritionEstimate: Hashable, Sendable, Codable {
    /// The recipe's id (`mealdb:52772`) or the food's (`ucla-jamix:recipe-1015`).
    public var subjectId: String
    /// The reference the ingredients were matched in (`usda-sr24`).
    public var reference: String
    /// Each line of the recipe with its grams, its match, or the reason it has neither.
    public var lines: [EstimateLine]
    /// Per 100 g of the matched ingredients (cooking loss applied), with units; empty when
    /// nothing was matched and converted.
    public var nutrients: [EstimatedNutrient]
    /// Grams of every line that could be converted.
    public var convertedGrams: Double
    /// Grams of the lines both converted and matched: what the amounts per 100 g stand on.
    public var matchedGrams: Double
    /// The share of the weight the recipe lists that lies in weighed lines, as the source
    /// states: what the cooked dish weighs less than its ingredients (0 when not stated).
    public var cookingLossPercent: Double
    /// The serving's weight, where the source gives a serving (UCLA's portions); nil otherwise.
    public var servingGrams: Double?
    /// Why there is no estimate (no line could be both matched and converted); nil when there is.
    public var reason: String?
    /// Why there is no estimate, as a stable code; nil when there is one.
    public var reasonCode: ReasonCode?

    /// Why a dish has no estimate (`food_estimate.reason_code`).
    public enum ReasonCode: String, Hashable, Sendable, Codable, CaseIterable {
        /// The recipe lists no ingredient.
        case noLines = "no_lines"
        /// No line could be both matched and weighed.
        case nothingCounted = "nothing_counted"

        /// What the code means, as the estimate's `reason` begins.
        public var summary: String {
            switch self {
            case .noLines: "the recipe lists no ingredient"
            case .nothingCounted: "no line could be both matched and weighed"
            }
        }
    }

    public init(subjectId: String, reference: String, lines: [EstimateLine], nutrients: [EstimatedNutrient],
                convertedGrams: Double, matchedGrams: Double, cookingLossPercent: Double, servingGrams: Double?,
                reason: String?, reasonCode: ReasonCode?) {
        self.subjectId = subjectId
        self.reference = reference
        self.lines = lines
        self.nutrients = nutrients
        self.convertedGrams = convertedGrams
        self.matchedGrams = matchedGrams
        self.cookingLossPercent = cookingLossPercent
        self.servingGrams = servingGrams
        self.reason = reason
        self.reasonCode = reasonCode
    }

    /// The share of the converted weight that was matched: 1 when every weighed line found its
    /// food. Lines without grams are counted in `lines`, not here, since their weight is unknown.
    public var matchedShare: Double { convertedGrams > 0 ? matchedGrams / convertedGrams : 0 }

    /// The estimated amount of `key` per 100 g, if estimated.
    public func amountPer100g(_ key: NutrientKey) -> Double? {
        nutrients.first { $0.key == key }?.amountPer100g
    }
}

/// One nutrient of an estimate, per 100 g of the dish, in the unit the snapshot uses for it.
public struct EstimatedNutrient: Hashable, Sendable, Codable {
    public var key: NutrientKey
    public var amountPer100g: Double
    public var unit: String

    public init(key: NutrientKey, amountPer100g: Double, unit: String) {
        self.key = key
        self.amountPer100g = amountPer100g
        self.unit = unit
    }
}

/// One line of a recipe as the estimate read it: its grams and how they were found, the
/// reference food it was matched to with the score and the rule that matched it, or the reason
/// it counts for nothing, so a person can review every line and override a match.
public struct EstimateLine: Hashable, Sendable, Codable {
    /// What became of a line, as a stable code beside the wording of `matchedBy` and `reason`:
    /// what a report or a query counts by (`food_estimate_line.reason_code`).
    public enum Code: String, Hashable, Sendable, Codable, CaseIterable {
        /// Counted: matched by a curated synonym or by its words.
        case matched
        /// Counted: matched by the override file.
        case override
        /// Counted with the sub-recipe's own document: its label per 100 g, or its own estimate.
        case subRecipeDocument = "subrecipe_document"
        /// Counted: a sub-recipe whose document gives neither, matched by its name.
        case subRecipeByName = "subrecipe_by_name"
        /// Not counted: no reference food matched the name.
        case unmatchedName = "unmatched_name"
        /// Not counted: the override file keeps the name unknown.
        case unknownByOverride = "unknown_by_override"
        /// Not counted: a sub-recipe with no document to count by whose name matched nothing.
        case subRecipeUnmatched = "subrecipe_unmatched"
        /// Not counted: the measure cannot be turned into grams (a volume or an item the food
        /// has no household measure for, "to taste").
        case unconvertibleUnit = "unconvertible_unit"
        /// Not counted: the line gives no amount, or an amount of nothing.
        case noAmount = "no_amount"
    }

    public var position: Int
    public var name: String
    /// The measure as written, where the source writes one ("2 tbsp", "1.5 lb").
    public var measure: String?
    public var grams: Double?
    /// How the grams were found ("weight", "1 tbsp = 13.5 g (SR measure)").
    public var gramsFrom: String?
    /// The reference food's id (SR's NDB number) and name, or a sub-recipe's food id.
    public var matchId: String?
    public var matchName: String?
    /// 0...1: 1 for a curated synonym, an override or a sub-recipe; the word score otherwise.
    public var matchScore: Double?
    /// `override`, `synonym`, `words`, `head words`, `sub-recipe label`, `sub-recipe estimate`; a
    /// sub-recipe matched by its name has `sub-recipe matched by name, ` before the rule.
    public var matchedBy: String?
    /// Why the line counts for nothing (unmatched, or no grams), or nil.
    public var reason: String?
    /// What became of the line; the one the estimator gives it last.
    public var code: Code

    public init(position: Int, name: String, code: Code, measure: String? = nil, grams: Double? = nil,
                gramsFrom: String? = nil, matchId: String? = nil, matchName: String? = nil, matchScore: Double? = nil,
                matchedBy: String? = nil, reason: String? = nil) {
        self.code = code
        self.position = position
        self.name = name
        self.measure = measure
        self.grams = grams
        self.gramsFrom = gramsFrom
        self.matchId = matchId
        self.matchName = matchName
        self.matchScore = matchScore
        self.matchedBy = matchedBy
        self.reason = reason
    }

    /// Whether the line counts in the estimate: matched and weighed.
    public var counts: Bool { matchId != nil && grams != nil && reason == nil }
}
