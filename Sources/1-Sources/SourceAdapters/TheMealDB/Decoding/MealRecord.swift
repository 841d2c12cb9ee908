import Foundation

/// One meal object as TheMealDB sends it, with blank slots already dropped.
///
/// Only `idMeal` and `strMeal` are required: `filter.php` answers with those and a thumbnail
/// alone, and unknown keys (`strCountry` was seen once) are ignored.
struct MealRecord: Decodable, Sendable {
    static let slotCount = 20

    struct Slot: Sendable {
        /// 1...20, the number in the key name.
        var position: Int
        var ingredient: String
        /// Nil for the slots that name an ingredient with no measure.
        var measure: String?
    }

    var id: String
    var name: String
    var alternateName: String?
    var category: String?
    var area: String?
    var instructions: String?
    var thumbnailURL: String?
    var tags: String?
    var youtubeURL: String?
    var sourceURL: String?
    var dateModified: String?
    var slots: [Slot]

    init(from decoder: any Decoder) throws {
        let fields = try decoder.container(keyedBy: WireKey.self)
        id = try fields.requiredText("idMeal")
        name = try fields.requiredText("strMeal")
        alternateName = try fields.text("strMealAlternate") ?? fields.text("strDrinkAlternate")
        category = try fields.text("strCategory")
        area = try fields.text("strArea")
        instructions = try fields.text("strInstructions")
        thumbnailURL = try fields.text("strMealThumb")
        tags = try fields.text("strTags")
        youtubeURL = try fields.text("strYoutube")
        sourceURL = try fields.text("strSource")
        dateModified = try fields.text("dateModified")
        slots = try (1...MealRecord.slotCount).compactMap { position in
            guard let ingredient = try fields.text(Self.ingredientKeys[position - 1]) else { return nil }
            return Slot(position: position, ingredient: ingredient,
                        measure: try fields.text(Self.measureKeys[position - 1]))
        }
    }

    /// The slots' key names, made once rather than for every slot of every meal.
    private static let ingredientKeys = (1...slotCount).map { "strIngredient\($0)" }
    private static let measureKeys = (1...slotCount).map { "strMeasure\($0)" }
}

/// One entry of `categories.php`.
struct CategoryRecord: Decodable, Sendable {
    var name: String
    var description: String?
    var thumbnailURL: String?

    init(from decoder: any Decoder) throws {
        let fields = try decoder.container(keyedBy: WireKey.self)
        name = try fields.requiredText("strCategory")
        description = try fields.text("strCategoryDescription")
        thumbnailURL = try fields.text("strCategoryThumb")
    }
}
