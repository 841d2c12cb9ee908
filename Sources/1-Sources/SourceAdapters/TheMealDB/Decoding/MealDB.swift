import Basics
import FoodModel
import Foundation

/// TheMealDB v1 (free key `1`): request paths and decoding of its JSON answers into FoodModel.
///
/// Decoding is tolerant of the API's quirks (see `MealRecord`, `WireKey`) and strict about
/// shape: a body that is not JSON, or has no `meals` key, is one `Failure` naming the URL or
/// file and, when known, the place inside it.
public enum MealDB {
    public static let sourceName = "mealdb"
    static let apiPath = "/api/json/v1/1/"

    /// Meals from `search.php`, `lookup.php`, `random.php` or `filter.php` (whose entries carry
    /// only id, name and thumbnail), or from a dump that is an array of meals; `{"meals": null}`
    /// is no meals.
    ///
    /// A large dump is decoded in pieces on every core (see `JSONArrayElements`); should a piece
    /// fail, the whole is decoded again in one piece, so that the error names the meal and
    /// field exactly as it would have. A dump too large to hold whole is for `MealDumpReader`.
    public static func decodeMeals(_ data: Data, location: String) throws -> [Recipe] {
        if data.count >= 4 << 20, let recipes = decodeMealsInPieces(data, pieces: 4 * Cores.active) {
            return recipes
        }
        return try decode(Envelope<MealsField, MealRecord>.self, data, location).items
            .mappedOnEveryCore(RecipeMapping.recipe(from:))
    }

    /// The meals decoded piece by piece, side by side, or nil when the document's list cannot
    /// be split or a piece does not decode.
    static func decodeMealsInPieces(_ data: Data, pieces: Int) -> [Recipe]? {
        guard let elements = JSONArrayElements.ranges(in: data, key: MealsField.name), !elements.isEmpty else {
            return nil
        }
        let size = (elements.count + pieces - 1) / pieces
        let groups = stride(from: 0, to: elements.count, by: size).map { start in
            elements[start].lowerBound..<elements[min(start + size, elements.count) - 1].upperBound
        }
        let decoded = groups.mappedOnEveryCore(minimumCount: 2) { range -> [Recipe]? in
            let piece = Data("[".utf8) + data[range] + Data("]".utf8)
            return (try? JSONDecoder().decode([MealRecord].self, from: piece))?.map(RecipeMapping.recipe(from:))
        }
        guard decoded.allSatisfy({ $0 != nil }) else { return nil }
        return decoded.flatMap { $0 ?? [] }
    }

    /// The categories of `categories.php`, with their descriptions.
    public static func decodeCategories(_ data: Data, location: String) throws -> [Category] {
        try decode(Envelope<CategoriesField, CategoryRecord>.self, data, location).items.map {
            Category(name: $0.name, description: $0.description, thumbnailURL: $0.thumbnailURL)
        }
    }

    /// `/api/json/v1/1/search.php?f=a`: every meal starting with a letter, the usual way to
    /// walk the catalogue. The letter is lowercased (the API ignores case) so that the same
    /// letter always gives the same URL, and so the same raw-store entry.
    public static func letterSearchPath(_ letter: Character) -> String {
        apiPath + "search.php?f=" + query(String(letter).lowercased())
    }

    public static var categoriesPath: String { apiPath + "categories.php" }

    private static func query(_ value: String) -> String {
        var allowed = CharacterSet.urlQueryAllowed
        allowed.remove(charactersIn: "&=+#")
        return value.addingPercentEncoding(withAllowedCharacters: allowed) ?? value
    }

    private static func decode<T: Decodable>(_ type: T.Type, _ data: Data, _ location: String) throws -> T {
        do {
            return try JSONDecoder().decode(type, from: data)
        } catch {
            throw JSONNesting.failure(data, location: location) ?? DecodingFailure.inputError(error, location: location)
        }
    }
}
