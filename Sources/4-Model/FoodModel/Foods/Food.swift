/// A dish as its source describes it on its own page: name, label and codes.
public struct Food: Hashable, Sendable, Codable {
    public var id: FoodID
    public var name: String
    public var description: String?
    /// As printed ("1 each", "4 oz").
    public var servingSize: String?
    /// The serving's amount and unit, where the adapter could read them from what it printed;
    /// nil leaves the snapshot to read them from `servingSize`.
    public var serving: ServingSize?
    public var calories: Double?
    public var nutrients: [NutrientValue]
    public var ingredients: String?
    public var allergens: [String]
    /// Web codes as printed (`V`, `AEGG`, `HC`).
    public var codes: [String]
    /// What the label's amounts are per: a serving (US labels) or 100 g (a kitchen system's
    /// recipe documents). Nil when the source printed no label for the food; a food with a
    /// basis and no nutrient is a label that yielded nothing, which the checks report.
    public var labelBasis: LabelBasis?
    /// How many portions the recipe yields (a kitchen's batch), where the source says; never
    /// the serving.
    public var batchPortions: Double?
    /// What the dish is made of, as its recipe lists it, in order.
    public var components: [FoodComponent]
    /// How much lighter the cooked dish is than what its recipe lists, in percent, where the
    /// source states it (UCLA's `cookingLossPercentage`): an estimate from the rows divides by
    /// the cooked weight.
    public var cookingLossPercent: Double?

    public init(id: FoodID, name: String, description: String? = nil, servingSize: String? = nil,
                calories: Double? = nil, nutrients: [NutrientValue] = [], ingredients: String? = nil,
                allergens: [String] = [], codes: [String] = [], labelBasis: LabelBasis? = nil) {
        self.id = id
        self.name = name
        self.description = description
        self.servingSize = servingSize
        self.calories = calories
        self.nutrients = nutrients
        self.ingredients = ingredients
        self.allergens = allergens
        self.codes = codes
        self.labelBasis = labelBasis
        self.components = []
        self.cookingLossPercent = nil
    }

    /// The serving's weight in grams, where the serving is a weight ("10 oz", "1 lb", "42 g") or
    /// states one in brackets ("Slice (1/96) (42g)", "2.7 oz Portion (77g)": the printed grams win);
    /// nil for a count or a volume ("1 each", "8 fl oz").
    public var servingGrams: Double? {
        if let printed = servingSize, let grams = ServingSize.statedGrams(in: printed) { return grams }
        return (serving ?? servingSize.flatMap(ServingSize.init(printed:)))?.grams
    }

    private enum CodingKeys: String, CodingKey {
        case source, recipeId, name, description, servingSize, serving, calories, nutrients
        case ingredients, allergens, codes, labelBasis, batchPortions, components, cookingLossPercent
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = FoodID(source: try c.decode(String.self, forKey: .source),
                    recipeId: try c.decode(String.self, forKey: .recipeId))
        name = try c.decode(String.self, forKey: .name)
        description = try c.decodeIfPresent(String.self, forKey: .description)
        servingSize = try c.decodeIfPresent(String.self, forKey: .servingSize)
        serving = try c.decodeIfPresent(ServingSize.self, forKey: .serving)
        calories = try c.decodeIfPresent(Double.self, forKey: .calories)
        nutrients = try c.decodeIfPresent([NutrientValue].self, forKey: .nutrients) ?? []
        ingredients = try c.decodeIfPresent(String.self, forKey: .ingredients)
        allergens = try c.decodeIfPresent([String].self, forKey: .allergens) ?? []
        codes = try c.decodeIfPresent([String].self, forKey: .codes) ?? []
        labelBasis = try c.decodeIfPresent(LabelBasis.self, forKey: .labelBasis)
        batchPortions = try c.decodeIfPresent(Double.self, forKey: .batchPortions)
        components = try c.decodeIfPresent([FoodComponent].self, forKey: .components) ?? []
        cookingLossPercent = try c.decodeIfPresent(Double.self, forKey: .cookingLossPercent)
    }

    /// Flattens the identity into `source` and `recipeId`, as the nested parse output shows it.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id.source, forKey: .source)
        try c.encode(id.recipeId, forKey: .recipeId)
        try c.encode(name, forKey: .name)
        try c.encodeIfPresent(description, forKey: .description)
        try c.encodeIfPresent(servingSize, forKey: .servingSize)
        try c.encodeIfPresent(serving, forKey: .serving)
        try c.encodeIfPresent(calories, forKey: .calories)
        try c.encode(nutrients, forKey: .nutrients)
        try c.encodeIfPresent(ingredients, forKey: .ingredients)
        try c.encode(allergens, forKey: .allergens)
        try c.encode(codes, forKey: .codes)
        try c.encodeIfPresent(labelBasis, forKey: .labelBasis)
        try c.encodeIfPresent(batchPortions, forKey: .batchPortions)
        if !components.isEmpty { try c.encode(components, forKey: .components) }
        try c.encodeIfPresent(cookingLossPercent, forKey: .cookingLossPercent)
    }
}

/// What a label's amounts are per.
public enum LabelBasis: String, Hashable, Sendable, Codable, CaseIterable {
    /// One serving, as a US Nutrition Facts label prints.
    case serving
    /// 100 g of the food, as a kitchen system computes a recipe (UCLA's recipe documents).
    case hundredGrams = "100 g"
}

/// One row of a recipe's composition: an ingredient or a sub-recipe with its amount, or a
/// heading the recipe prints between rows.
public struct FoodComponent: Hashable, Sendable, Codable {
    public var name: String
    public var amount: Double?
    public var unit: String?
    /// The food this row is, where the source gives its document (a sub-recipe, an ingredient).
    public var food: FoodID?
    public var isHeading: Bool
    /// The row is another recipe of the kitchen (a sub-recipe), not a bought ingredient: an
    /// estimate that cannot read its document matches it by name and says so.
    public var isSubRecipe: Bool

    public init(name: String, amount: Double? = nil, unit: String? = nil, food: FoodID? = nil,
                isHeading: Bool = false, isSubRecipe: Bool = false) {
        self.name = name
        self.amount = amount
        self.unit = unit
        self.food = food
        self.isHeading = isHeading
        self.isSubRecipe = isSubRecipe
    }
}

/// A nutrient's canonical key (`total_fat`, `sodium`, `vitamin_a`), so that "Total Fat",
/// "Fat" and "total fat" from different sources meet in one row of the `nutrient` table.
public struct NutrientKey: RawRepresentable, Hashable, Comparable, Sendable, Codable,
    CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }
    public static func < (lhs: NutrientKey, rhs: NutrientKey) -> Bool { lhs.rawValue < rhs.rawValue }

    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(String.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    public static let calories = NutrientKey("calories")
    public static let caloriesFromFat = NutrientKey("calories_from_fat")
    public static let totalFat = NutrientKey("total_fat")
    public static let saturatedFat = NutrientKey("saturated_fat")
    public static let transFat = NutrientKey("trans_fat")
    public static let cholesterol = NutrientKey("cholesterol")
    public static let sodium = NutrientKey("sodium")
    public static let totalCarbohydrate = NutrientKey("total_carbohydrate")
    public static let dietaryFiber = NutrientKey("dietary_fiber")
    public static let sugars = NutrientKey("sugars")
    public static let protein = NutrientKey("protein")
    public static let vitaminA = NutrientKey("vitamin_a")
    public static let vitaminC = NutrientKey("vitamin_c")
    public static let calcium = NutrientKey("calcium")
    public static let iron = NutrientKey("iron")
}

/// One nutrient of one food: the amount as printed, its unit, and the %DV printed beside it.
///
/// Vitamins and minerals on UCLA labels are printed as a percentage only, so `amount` and
/// `unit` are optional while `printedDailyValuePercent` carries the value.
public struct NutrientValue: Hashable, Sendable, Codable {
    public var key: NutrientKey
    /// The label's own wording ("Total Fat").
    public var name: String
    public var amount: Double?
    /// `g`, `mg`, `mcg`, `kcal`, `IU`, as printed.
    public var unit: String?
    public var printedDailyValuePercent: Double?
    /// Filled by the compute stage under a named daily-value standard.
    public var computedDailyValuePercent: Double?
    /// The daily-value standard `computedDailyValuePercent` was computed under (`ucla-label`).
    public var dailyValueStandard: String?
    /// The amount as printed when it is not a plain number ("< 1", "0+", "-"); `amount` is
    /// then nil, since no single number was printed, and the bounds below keep what is known.
    public var printedAmount: String?
    /// The true amount is below this ("< 1" prints 1).
    public var amountBelow: Double?
    /// The true amount is at least this ("0+" prints 0: the source's sum lacks some ingredients).
    public var amountAtLeast: Double?

    public init(key: NutrientKey, name: String, amount: Double?, unit: String?,
                printedDailyValuePercent: Double? = nil, computedDailyValuePercent: Double? = nil,
                dailyValueStandard: String? = nil, printedAmount: String? = nil, amountBelow: Double? = nil,
                amountAtLeast: Double? = nil) {
        self.key = key
        self.name = name
        self.amount = amount
        self.unit = unit
        self.printedDailyValuePercent = printedDailyValuePercent
        self.computedDailyValuePercent = computedDailyValuePercent
        self.dailyValueStandard = dailyValueStandard
        self.printedAmount = printedAmount
        self.amountBelow = amountBelow
        self.amountAtLeast = amountAtLeast
    }
}

/// What a web code means: `V` is a dietary option, `AEGG` an allergen, `LC` a footprint label.
public struct DietaryCode: Hashable, Sendable, Codable {
    public enum Kind: String, Hashable, Sendable, Codable {
        case dietary, allergen, sustainability, unknown
    }

    public var code: String
    public var label: String
    public var kind: Kind
    /// What the code means in the one vocabulary (`Vocabulary.terms`): none for a code that is
    /// not an allergen or a diet there (a high-carbon label), one for most, more only where the
    /// source's own legend says so.
    public var terms: [String]
    /// Whether the code says the food holds its allergen terms or only may (cross-contact).
    public var presence: TermPresence

    public init(code: String, label: String, kind: Kind, terms: [String] = [], presence: TermPresence = .contains) {
        self.code = code
        self.label = label
        self.kind = kind
        self.terms = terms
        self.presence = presence
    }
}
