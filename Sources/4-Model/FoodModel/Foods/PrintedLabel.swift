/// What one printed label says of a food: its serving, its calories and nutrients, and what the
/// amounts are per. A food carries the label of its page or of its first appearance; a menu item
/// carries its own where the label printed with it is another (one food id served in two sizes
/// on one day, a 3 oz and a 4.5 oz tofu). The run keeps each different label of a food as a
/// version, and each item points at the version printed with it.
public struct PrintedLabel: Hashable, Sendable, Codable {
    public var servingSize: String?
    public var serving: ServingSize?
    public var calories: Double?
    public var nutrients: [NutrientValue]
    public var basis: LabelBasis?

    public init(servingSize: String? = nil, serving: ServingSize? = nil, calories: Double? = nil,
                nutrients: [NutrientValue] = [], basis: LabelBasis? = nil) {
        self.servingSize = servingSize
        self.serving = serving
        self.calories = calories
        self.nutrients = nutrients
        self.basis = basis
    }

    /// The label `food` carries.
    public init(of food: Food) {
        self.init(servingSize: food.servingSize, serving: food.serving, calories: food.calories,
                  nutrients: food.nutrients, basis: food.labelBasis)
    }

    /// `food` with this label in place of its own; everything else (name, codes, ingredients)
    /// stays the food's.
    public func applied(to food: Food) -> Food {
        var food = food
        food.servingSize = servingSize
        food.serving = serving
        food.calories = calories
        food.nutrients = nutrients
        food.labelBasis = basis
        return food
    }
}
