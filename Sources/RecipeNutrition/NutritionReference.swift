import Basics
import FoodModel
import Foundation
import GRDB
import Synchronization

/// A nutrition reference held in memory: every food with its household measures and the
/// nutrients an estimate carries, per 100 g. Read once from the SQLite file
/// `scripts/nutrition-reference` builds (docs/nutrition-estimates.md).
public struct NutritionReference: Sendable {
    public struct Food: Sendable, Hashable {
        public let id: String
        public let name: String
        /// Grams of `amount` of each household measure, in the reference's order.
        public let measures: [HouseholdMeasure]
        /// Per 100 g, in `ReferenceNutrients`' units.
        public let nutrients: [NutrientKey: Double]
    }

    public struct HouseholdMeasure: Sendable, Hashable {
        public let name: String
        public let amount: Double
        public let grams: Double
    }

    /// The name a pipeline gives it (`nutrition_reference: usda-sr24`).
    public let name: String
    public let foods: [String: Food]
    /// The foods a match by words may choose, with their words: made once per reference, when
    /// the first name is matched by words. Reading a pipeline that names the reference (every
    /// command does, and an unchanged night estimates nothing) does not pay for folding the
    /// words of all its foods.
    let wordCandidates: WordCandidates
    /// Which build of the reference this is: its file, size and modification time, so that a
    /// pipeline's fingerprint changes when the reference is built again.
    public let version: String

    public init(name: String, foods: [Food], version: String = "") {
        self.name = name
        self.version = version
        self.foods = Dictionary(foods.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        wordCandidates = WordCandidates(foods)
    }

    /// The word candidates of a reference's foods, made on first use and shared by its copies.
    final class WordCandidates: Sendable {
        private let foods: [Food]
        private let made = Mutex<[IngredientMatcher.Candidate]?>(nil)

        init(_ foods: [Food]) {
            self.foods = foods
        }

        var all: [IngredientMatcher.Candidate] {
            made.withLock { made in
                if let made { return made }
                let candidates = IngredientMatcher.candidates(among: foods)
                made = candidates
                return candidates
            }
        }
    }

    /// References read in this process, by file, size and modification time: a pipeline file is
    /// read more than once a run (and by every test), and the file is replaced, never edited.
    private static let loaded = Mutex<[String: NutritionReference]>([:])

    /// The references Commissary knows, each built by a script of the repository.
    public static let known = ["usda-sr24"]

    /// Where the reference `name` is read from: `$COMMISSARY_NUTRITION_REFERENCE` (a file),
    /// else `usda-sr24.sqlite` in the user's cache folder, where the script builds it.
    public static func location(of name: String, environment: [String: String] = ProcessInfo.processInfo.environment)
        -> URL {
        if let file = environment["COMMISSARY_NUTRITION_REFERENCE"], !file.isEmpty {
            return URL(fileURLWithPath: file)
        }
        let cache = environment["XDG_CACHE_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? ((environment["HOME"] ?? NSHomeDirectory()) + "/.cache")
        return URL(fileURLWithPath: cache).appendingPathComponent("commissary/\(name).sqlite")
    }

    /// Reads the reference `name` from where `location(of:)` says; a missing or unreadable file is
    /// one line naming it and the script that builds it.
    public static func load(_ name: String, from file: URL? = nil) throws -> NutritionReference {
        let file = file ?? location(of: name)
        let remedy = "run scripts/nutrition-reference, which builds it from Debian's cronometer package"
        guard FileManager.default.fileExists(atPath: file.path) else {
            throw Failure.fileSystem("the nutrition reference \(name) is missing: \(remedy)", path: file.path)
        }
        let attributes = try? FileManager.default.attributesOfItem(atPath: file.path)
        let version = "\(file.path)|\(attributes?[.size] ?? "")|\(attributes?[.modificationDate] ?? "")"
        if let cached = loaded.withLock({ $0[version] }) { return cached }
        var configuration = Configuration()
        configuration.readonly = true
        do {
            let queue = try DatabaseQueue(path: file.path, configuration: configuration)
            let foods = try queue.read { try ReferenceRows.foods(in: $0, file: file.path) }
            guard !foods.isEmpty else {
                throw Failure.fileSystem("the nutrition reference \(name) holds no food: \(remedy) --force",
                                         path: file.path)
            }
            let reference = NutritionReference(name: name, foods: foods, version: version)
            loaded.withLock { $0[version] = reference }
            return reference
        } catch let failure as Failure {
            throw failure
        } catch {
            throw Failure.fileSystem("the nutrition reference \(name) cannot be read (\(error)): \(remedy) --force",
                                     path: file.path, cause: error)
        }
    }
}

/// The rows of the reference's tables, read into foods.
enum ReferenceRows {
    static func foods(in db: Database, file: String) throws -> [NutritionReference.Food] {
        try checkTypes(in: db, file: file)
        var units: [String: String] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT name, unit FROM reference_nutrient") {
            units[row["name"]] = row["unit"]
        }
        for entry in ReferenceNutrients.all where units[entry.referenceName] != entry.unit {
            throw Failure.badInput("the reference gives \(entry.referenceName) in \(units[entry.referenceName] ?? "no unit"), "
                                   + "not \(entry.unit)", at: file)
        }
        let keys = Dictionary(uniqueKeysWithValues: ReferenceNutrients.all.map { ($0.referenceName, $0.key) })
        var nutrients: [String: [NutrientKey: Double]] = [:]
        // The names are bound as one JSON array: no SQL text is made from values.
        let names = String(decoding: try JSONEncoder().encode(ReferenceNutrients.all.map(\.referenceName)), as: UTF8.self)
        let nutrientRows = try Row.fetchCursor(db, sql: """
            SELECT uid, nutrient, amount_per_100g FROM reference_food_nutrient
            WHERE nutrient IN (SELECT value FROM json_each(?))
            """, arguments: [names])
        while let row = try nutrientRows.next() {
            let name: String = row["nutrient"]
            guard let key = keys[name] else { continue }
            nutrients[row["uid"], default: [:]][key] = row["amount_per_100g"]
        }
        var measures: [String: [NutritionReference.HouseholdMeasure]] = [:]
        let measureRows = try Row.fetchCursor(db, sql: "SELECT uid, name, amount, grams FROM reference_measure ORDER BY uid, position")
        while let row = try measureRows.next() {
            measures[row["uid"], default: []].append(
                NutritionReference.HouseholdMeasure(name: row["name"], amount: row["amount"], grams: row["grams"]))
        }
        return try Row.fetchAll(db, sql: "SELECT uid, name FROM reference_food ORDER BY uid").map { row in
            let id: String = row["uid"]
            return NutritionReference.Food(id: id, name: row["name"], measures: measures[id] ?? [],
                                           nutrients: nutrients[id] ?? [:])
        }
    }

    /// Every value read below is of the type it is read as, so that no file, however damaged,
    /// can stop the program: a reference is refused whole, with the remedy, rather than read in part.
    private static func checkTypes(in db: Database, file: String) throws {
        let damaged = try Int.fetchOne(db, sql: """
            SELECT (SELECT count(*) FROM reference_nutrient WHERE typeof(name) <> 'text' OR typeof(unit) <> 'text')
                 + (SELECT count(*) FROM reference_food WHERE typeof(uid) <> 'text' OR typeof(name) <> 'text')
                 + (SELECT count(*) FROM reference_food_nutrient WHERE typeof(uid) <> 'text' OR typeof(nutrient) <> 'text'
                        OR typeof(amount_per_100g) NOT IN ('real', 'integer') OR amount_per_100g NOT BETWEEN 0 AND 1e9)
                 + (SELECT count(*) FROM reference_measure WHERE typeof(uid) <> 'text' OR typeof(name) <> 'text'
                        OR typeof(amount) NOT IN ('real', 'integer') OR typeof(grams) NOT IN ('real', 'integer')
                        OR amount NOT BETWEEN 0 AND 1e9 OR grams NOT BETWEEN 0 AND 1e9)
            """) ?? 0
        guard damaged == 0 else {
            throw Failure.badInput("the nutrition reference has \(damaged) row(s) of the wrong type: run "
                                   + "scripts/nutrition-reference --force", at: file)
        }
    }
}
