import Basics
import Foundation

/// Recipes as the spool and the intake keep them: each field in a fixed order (`FieldWriter`). A
/// dump of a million recipes passes through this once each way, and the generic coders spent
/// more time on keys and containers than on the values (a third of the run, perf). `RecipeSpoolTests` round-trips
/// every real meal of the dump, so a field this forgot would fail there.
public enum RecipeBytes {
    public static func encode(_ recipes: [Recipe]) -> Data {
        FieldWriter.list(recipes) { $0.put($1) }
    }

    /// Throws `Failure.damagedBytes` for bytes this did not write.
    public static func decode(_ data: Data) throws -> [Recipe] {
        try FieldReader.list(data) { try $0.recipe() }
    }
}

extension FieldWriter {
    fileprivate mutating func put(_ recipe: Recipe) {
        put(recipe.id.source)
        put(recipe.id.id)
        put(recipe.name)
        put(recipe.alternateName)
        put(recipe.category)
        put(recipe.area)
        put(recipe.steps)
        put(recipe.thumbnailURL)
        put(recipe.youtubeURL)
        put(recipe.sourceURL)
        put(recipe.tags)
        put(recipe.ingredients.count)
        for line in recipe.ingredients {
            put(line.position)
            put(line.ingredient.key)
            put(line.ingredient.name)
            let measure = line.measure
            put(measure.raw)
            put(measure.kind.rawValue)
            put(measure.quantity)
            put(measure.maximum)
            put(measure.unit)
            put(measure.unitSystem)
            put(measure.confidence.bitPattern)
        }
        put(recipe.modifiedAt)
    }

    fileprivate mutating func put(_ value: Rational?) {
        put(present: value != nil)
        guard let value else { return }
        put(value.numerator)
        put(value.denominator)
    }
}

extension FieldReader {
    fileprivate mutating func recipe() throws -> Recipe {
        let id = RecipeID(source: try string(), id: try string())
        var recipe = Recipe(id: id, name: try string(), alternateName: try optionalString(),
                            category: try optionalString(), area: try optionalString(), steps: try strings(),
                            thumbnailURL: try optionalString(), youtubeURL: try optionalString(),
                            sourceURL: try optionalString(), tags: try strings())
        let lines = try count()
        recipe.ingredients.reserveCapacity(lines)
        for _ in 0..<lines {
            let position = try int()
            let ingredient = Ingredient(key: try string(), name: try string())
            let raw = try optionalString()
            guard let kind = Measure.Kind(rawValue: try string()) else { throw Failure.damagedBytes }
            let measure = Measure(raw: raw, kind: kind, quantity: try rational(), maximum: try rational(),
                                  unit: try optionalString(), unitSystem: try optionalString(),
                                  confidence: Double(bitPattern: try uint64()))
            recipe.ingredients.append(RecipeIngredient(position: position, ingredient: ingredient, measure: measure))
        }
        recipe.modifiedAt = try optionalString()
        return recipe
    }

    fileprivate mutating func rational() throws -> Rational? {
        guard try flag() else { return nil }
        guard let value = Rational(try int(), try int()) else { throw Failure.damagedBytes }
        return value
    }
}
