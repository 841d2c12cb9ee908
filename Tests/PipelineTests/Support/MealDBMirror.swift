import Foundation
import TestSupport

/// TheMealDB as the 442-meal dump in ../shared/data would be served by it: `search.php?f=`
/// answers the meals whose name starts with that letter, `{"meals": null}` when none does, and
/// `categories.php` answers the real saved `categories.php` response, byte for byte.
///
/// First letters are compared without case or accents ("Šúĺlance s Makom" is under `s`), as the
/// API's accent-insensitive SQL collation compares them. Meals are re-serialised with
/// JSONSerialization, which escapes slashes as the API does.
struct MealDBMirror: Sendable {
    static let apiPath = "/api/json/v1/1/"
    static let emptyLetter = Data(#"{"meals":null}"#.utf8)

    private let letters: [String: Data]
    private let categories: Data

    init() throws {
        var byLetter: [String: [[String: Any]]] = [:]
        for meal in try MealDumpRun.realMeals() {
            guard let name = meal["strMeal"] as? String, let first = name.first else {
                throw MirrorError("a meal without strMeal in the dump")
            }
            byLetter[Self.fold(first), default: []].append(meal)
        }
        letters = try byLetter.mapValues { try JSONSerialization.data(withJSONObject: ["meals": $0]) }
        categories = try Data(contentsOf: Paths.sharedData.appendingPathComponent("themealdb/responses/categories.json"))
    }

    static func fold(_ character: Character) -> String {
        String(character).folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil).lowercased()
    }

    /// Every letter path the backfill asks for, in its order.
    static let letterPaths = "abcdefghijklmnopqrstuvwxyz0123456789".map { apiPath + "search.php?f=\($0)" }
    static let categoriesPath = apiPath + "categories.php"

    func answer(_ path: String) -> Reply {
        if path == Self.categoriesPath {
            return Reply(body: categories)
        }
        let search = Self.apiPath + "search.php?f="
        if path.hasPrefix(search) {
            let letter = String(path.dropFirst(search.count)).lowercased()
            return Reply(body: letters[letter] ?? Self.emptyLetter)
        }
        return Reply(status: 404, body: Data("{}".utf8))
    }

    /// How many meals the mirror serves under one letter.
    func mealCount(_ letter: String) throws -> Int {
        guard let body = letters[letter] else { return 0 }
        let root = try JSONSerialization.jsonObject(with: body) as? [String: Any]
        return (root?["meals"] as? [Any])?.count ?? 0
    }
}

struct MirrorError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
