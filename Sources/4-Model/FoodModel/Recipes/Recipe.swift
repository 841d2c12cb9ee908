/// A catalogue recipe (TheMealDB meal) after normalization.
public struct Recipe: Hashable, Sendable, Codable {
    public var id: RecipeID
    public var name: String
    public var alternateName: String?
    public var category: String?
    public var area: String?
    /// Instructions cleaned into steps (line endings unified, "STEP n" headers removed).
    public var steps: [String]
    public var thumbnailURL: String?
    public var youtubeURL: String?
    public var sourceURL: String?
    public var tags: [String]
    public var ingredients: [RecipeIngredient]
    /// As published (`YYYY-MM-DD HH:MM:SS`, no zone); kept as text because the zone is unknown.
    public var modifiedAt: String?

    public init(id: RecipeID, name: String, alternateName: String? = nil, category: String? = nil,
                area: String? = nil, steps: [String] = [], thumbnailURL: String? = nil,
                youtubeURL: String? = nil, sourceURL: String? = nil, tags: [String] = [],
                ingredients: [RecipeIngredient] = [], modifiedAt: String? = nil) {
        self.id = id
        self.name = name
        self.alternateName = alternateName
        self.category = category
        self.area = area
        self.steps = steps
        self.thumbnailURL = thumbnailURL
        self.youtubeURL = youtubeURL
        self.sourceURL = sourceURL
        self.tags = tags
        self.ingredients = ingredients
        self.modifiedAt = modifiedAt
    }
}

/// One ingredient line of a recipe, in the order the source lists it (position 1...20).
public struct RecipeIngredient: Hashable, Sendable, Codable {
    public var position: Int
    public var ingredient: Ingredient
    public var measure: Measure

    public init(position: Int, ingredient: Ingredient, measure: Measure) {
        self.position = position
        self.ingredient = ingredient
        self.measure = measure
    }
}

/// An ingredient with a canonical identity: case and spacing folded, original spelling kept.
public struct Ingredient: Hashable, Sendable, Codable {
    /// The folded key ("olive oil") that makes "Olive Oil" and "olive oil" one ingredient.
    public var key: String
    /// The spelling the source used.
    public var name: String

    public init(name: String) {
        self.name = name
        self.key = foldedKey(name)
    }

    /// An ingredient read back as it was kept, its key not folded again.
    init(key: String, name: String) {
        self.key = key
        self.name = name
    }
}

/// An exact non-negative rational number, so that "1/3 cup" stays a third.
public struct Rational: Hashable, Sendable, Codable, CustomStringConvertible {
    public let numerator: Int
    public let denominator: Int

    /// Creates a fraction in lowest terms; nil for a zero denominator.
    public init?(_ numerator: Int, _ denominator: Int = 1) {
        guard denominator != 0 else { return nil }
        func gcd(_ a: Int, _ b: Int) -> Int { b == 0 ? abs(a) : gcd(b, a % b) }
        let divisor = max(gcd(numerator, denominator), 1)
        let sign = denominator < 0 ? -1 : 1
        self.numerator = sign * numerator / divisor
        self.denominator = sign * denominator / divisor
    }

    public var doubleValue: Double { Double(numerator) / Double(denominator) }

    public var description: String {
        denominator == 1 ? "\(numerator)" : "\(numerator)/\(denominator)"
    }
}

/// A measure string and what could be read from it.
///
/// The raw text is always kept: TheMealDB's measures are free text ("Juice of 1/2",
/// "175g/6oz"), and a reader must be able to check any parse against what was written.
public struct Measure: Hashable, Sendable, Codable {
    public enum Kind: String, Hashable, Sendable, Codable {
        /// A number with a unit ("200g", "2 tbsp").
        case quantity
        /// A bare number or a number with a descriptor ("2", "3 cloves").
        case count
        /// Deliberately without amount ("to taste", "pinch", "garnish").
        case unquantified
        /// Text nothing could be read from.
        case unparsed
        /// No measure given.
        case absent
    }

    public var raw: String?
    public var kind: Kind
    /// The lower (or only) quantity; `maximum` is set for ranges ("2-3 tbsp").
    public var quantity: Rational?
    public var maximum: Rational?
    /// Canonical unit (`g`, `ml`, `tbsp`, `cup`, `clove`, ...).
    public var unit: String?
    /// `metric`, `us`, or nil when the unit belongs to neither.
    public var unitSystem: String?
    /// 0...1: how sure the parser is of `quantity` and `unit`.
    public var confidence: Double

    public init(raw: String?, kind: Kind, quantity: Rational? = nil, maximum: Rational? = nil,
                unit: String? = nil, unitSystem: String? = nil, confidence: Double) {
        self.raw = raw
        self.kind = kind
        self.quantity = quantity
        self.maximum = maximum
        self.unit = unit
        self.unitSystem = unitSystem
        self.confidence = confidence
    }
}

/// A recipe category with the catalogue's own description (TheMealDB `categories.php`).
public struct Category: Hashable, Sendable, Codable {
    public var name: String
    public var description: String?
    public var thumbnailURL: String?

    public init(name: String, description: String? = nil, thumbnailURL: String? = nil) {
        self.name = name
        self.description = description
        self.thumbnailURL = thumbnailURL
    }
}
