import Basics
import FoodModel
import Foundation
import GRDB
import Synchronization
import YAMLConfig

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
        /// The candidates in the order `IngredientMatcher.candidates(among:)` gives them, and
        /// for each word the positions of the candidates that have it, in that order: a match
        /// looks only at the candidates of its rarest word, where it scanned all of them (a
        /// night estimating its recipes spent a second there).
        struct Index: Sendable {
            let all: [IngredientMatcher.Candidate]
            let positions: [String: [Int]]
        }

        private let foods: [Food]
        private let made = Mutex<Index?>(nil)

        init(_ foods: [Food]) {
            self.foods = foods
        }

        var index: Index {
            made.withLock { made in
                if let made { return made }
                let candidates = IngredientMatcher.candidates(among: foods)
                var positions: [String: [Int]] = [:]
                for (position, candidate) in candidates.enumerated() {
                    for word in candidate.words { positions[word, default: []].append(position) }
                }
                let index = Index(all: candidates, positions: positions)
                made = index
                return index
            }
        }
    }

    /// References read in this process, by file, size and modification time: a pipeline file is
    /// read more than once a run (and by every test), and the file is replaced, never edited.
    private static let loaded = Mutex<[String: NutritionReference]>([:])

    /// The references Commissary knows, each built by a script of the repository.
    public static let known = ["usda-sr24"]

    /// Where the reference `name` is read from: `$COMMISSARY_NUTRITION_REFERENCE` (a file), else
    /// `<name>.sqlite` in the user's cache folder, where the script builds it, when it is there,
    /// else the one `scripts/install` put in `share/commissary`: a system service whose sandbox
    /// hides home folders (systemd's `ProtectHome=yes`) reads that one. When none is there, the
    /// cache's path, which the missing-file message names.
    public static func location(of name: String, environment: [String: String] = ProcessInfo.processInfo.environment)
        -> URL {
        if let file = environment["COMMISSARY_NUTRITION_REFERENCE"], !file.isEmpty {
            return URL(fileURLWithPath: file)
        }
        let folder = environment["XDG_CACHE_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? ((environment["HOME"] ?? NSHomeDirectory()) + "/.cache")
        let cache = URL(fileURLWithPath: folder).appendingPathComponent("commissary/\(name).sqlite")
        if FileManager.default.fileExists(atPath: cache.path) { return cache }
        return DataFolders.installed("\(name).sqlite") ?? cache
    }

    /// Reads the reference `name` from where `location(of:)` says; a missing or unreadable file is
    /// one line naming it and the script that builds it.
    public static func load(_ name: String, from file: URL? = nil) throws -> NutritionReference {
        let file = file ?? location(of: name)
        let version = try build(of: name, at: file)
        if let cached = loaded.withLock({ $0[version] }) { return cached }
        let foods = try rows(of: name, at: file) { db in try ReferenceRows.foods(in: db, file: file.path) }
        let reference = NutritionReference(name: name, foods: foods, version: version)
        loaded.withLock { $0[version] = reference }
        return reference
    }

    /// The ids of the reference's foods and its build, read without the foods: what a pipeline's
    /// matching tables are checked against when the pipeline is read (`DeferredEstimator`).
    public static func foodIDs(_ name: String, from file: URL) throws -> (ids: Set<String>, version: String) {
        let version = try build(of: name, at: file)
        if let cached = loaded.withLock({ $0[version] }) { return (Set(cached.foods.keys), version) }
        return (Set(try rows(of: name, at: file) { db in try ReferenceRows.ids(in: db, file: file.path) }), version)
    }

    private static let remedy = "run scripts/nutrition-reference, which builds it from Debian's cronometer package"

    /// Which build of the reference is at `file` (`version`), once it is known to be a regular
    /// file there.
    private static func build(of name: String, at file: URL) throws -> String {
        // An installed binary without the repository's scripts: the install puts one where it looks.
        let installed = " (or scripts/install, which puts it in PREFIX/share/commissary, where a system service finds it)"
        guard FileManager.default.fileExists(atPath: file.path) else {
            throw Failure.fileSystem("the nutrition reference \(name) is missing: \(remedy)\(installed)", path: file.path)
        }
        // SQLite's own open of a named pipe would wait for a writer, before the run has begun.
        try RegularFile.check(file.path, what: "nutrition reference \(name)")
        // The modification time in full: printed as a date, it kept whole seconds, and a build
        // of the same size within the same second went unseen. Not the inode: a container's
        // image gives the same file another inode on each machine, which would make every night
        // there look like a new build.
        let attributes = try? FileManager.default.attributesOfItem(atPath: file.path)
        let modified = (attributes?[.modificationDate] as? Date).map { String($0.timeIntervalSince1970) } ?? ""
        return "\(file.path)|\(attributes?[.size] ?? "")|\(modified)"
    }

    /// What `read` makes of the reference's file, opened read-only; a file SQLite cannot read, or
    /// one without a food, is one line with the remedy.
    private static func rows<Rows: Collection>(of name: String, at file: URL,
                                               _ read: (Database) throws -> Rows) throws -> Rows {
        var configuration = Configuration()
        configuration.readonly = true
        do {
            let queue = try DatabaseQueue(path: file.path, configuration: configuration)
            let rows = try queue.read(read)
            guard !rows.isEmpty else {
                throw Failure.fileSystem("the nutrition reference \(name) holds no food: \(remedy) --force",
                                         path: file.path)
            }
            return rows
        } catch let failure as Failure {
            throw failure
        } catch {
            throw Failure.fileSystem("the nutrition reference \(name) cannot be read (\(error)): \(remedy) --force",
                                     path: file.path, cause: error)
        }
    }
}

/// The rows of the reference's tables, read into foods. Every value is checked as it is read,
/// so that no file, however damaged, can stop the program: a reference with a value of the
/// wrong type where one is read is refused whole, with the remedy, rather than read in part. The
/// rows of nutrients no estimate uses are not read, so not checked.
///
/// Each query gives, after its columns, whether the row's values have the types read (SQLite's
/// `typeof`): a row found sound is then read with the statement's typed reads, which would
/// convert a value of the wrong type rather than refuse it. Read through a generic value
/// instead, the reference's 108,000 nutrient rows cost every run with estimates about as much
/// as the rest of its start.
enum ReferenceRows {
    static func ids(in db: Database, file: String) throws -> [String] {
        try Row.fetchAll(db, sql: select("uid", from: "reference_food", text: ["uid"])).map { row in
            try check(row, of: "reference_food", file: file)
            return try row.decode(String.self, atIndex: 0)
        }
    }

    static func foods(in db: Database, file: String) throws -> [NutritionReference.Food] {
        var units: [String: String] = [:]
        for row in try Row.fetchAll(db, sql: select("name, unit", from: "reference_nutrient", text: ["name", "unit"])) {
            try check(row, of: "reference_nutrient", file: file)
            units[try row.decode(String.self, atIndex: 0)] = try row.decode(String.self, atIndex: 1)
        }
        let foodRows = try Row.fetchAll(db, sql: select("uid, name", from: "reference_food ORDER BY uid", text: ["uid", "name"]))
        var position: [String: Int] = [:]
        position.reserveCapacity(foodRows.count)
        for (index, row) in foodRows.enumerated() {
            try check(row, of: "reference_food", file: file)
            // A uid given twice (a file without its key) is the first food's, as in the reference.
            let id = try row.decode(String.self, atIndex: 0)
            if position[id] == nil { position[id] = index }
        }
        // Each food's amounts are gathered by its position, then made into its table once: a
        // table of tables updated row by row hashed both keys for each of the 108,000 rows.
        var amounts = [[(NutrientKey, Double)]](repeating: [], count: foodRows.count)
        let keys = Dictionary(uniqueKeysWithValues: ReferenceNutrients.all.map { ($0.referenceName, $0.key) })
        // The names are bound as one JSON array: no SQL text is made from values.
        let names = String(decoding: try JSONEncoder().encode(ReferenceNutrients.all.map(\.referenceName)), as: UTF8.self)
        let table = "reference_food_nutrient"
        let nutrientRows = try Row.fetchCursor(db, sql: select("uid, nutrient, amount_per_100g", from: """
            reference_food_nutrient WHERE nutrient IN (SELECT value FROM json_each(?))
            """, text: ["uid", "nutrient"], numbers: ["amount_per_100g"]), arguments: [names])
        while let row = try nutrientRows.next() {
            try check(row, of: table, file: file)
            guard let key = keys[try row.decode(String.self, atIndex: 1)],
                  let food = position[try row.decode(String.self, atIndex: 0)] else { continue }
            amounts[food].append((key, try amount(row, 2, of: table, file: file)))
        }
        var measures = [[NutritionReference.HouseholdMeasure]](repeating: [], count: foodRows.count)
        let measureRows = try Row.fetchCursor(db, sql: select("uid, name, amount, grams",
                                                              from: "reference_measure ORDER BY uid, position",
                                                              text: ["uid", "name"], numbers: ["amount", "grams"]))
        while let row = try measureRows.next() {
            try check(row, of: "reference_measure", file: file)
            guard let food = position[try row.decode(String.self, atIndex: 0)] else { continue }
            measures[food].append(NutritionReference.HouseholdMeasure(
                name: try row.decode(String.self, atIndex: 1), amount: try amount(row, 2, of: "reference_measure", file: file),
                grams: try amount(row, 3, of: "reference_measure", file: file)))
        }
        let foods = try foodRows.enumerated().map { index, row in
            NutritionReference.Food(id: try row.decode(String.self, atIndex: 0), name: try row.decode(String.self, atIndex: 1),
                                    measures: measures[index],
                                    nutrients: Dictionary(amounts[index]) { _, later in later })
        }
        for entry in ReferenceNutrients.all where units[entry.referenceName] != entry.unit {
            throw Failure.badInput("the reference gives \(entry.referenceName) in \(units[entry.referenceName] ?? "no unit"), "
                                   + "not \(entry.unit)", at: file)
        }
        return foods
    }

    /// `SELECT columns FROM source`, with a last column that says whether each of `text` holds
    /// text and each of `numbers` a number (`check`).
    private static func select(_ columns: String, from source: String, text: [String], numbers: [String] = []) -> String {
        let sound = (text.map { "typeof(\($0)) = 'text'" } + numbers.map { "typeof(\($0)) IN ('integer', 'real')" })
            .joined(separator: " AND ")
        return "SELECT \(columns), \(sound) FROM \(source)"
    }

    /// Refuses `row` unless its last column says its values have the types read.
    private static func check(_ row: Row, of table: String, file: String) throws {
        guard try row.decode(Bool.self, atIndex: row.count - 1) else { throw damaged(row, table, file) }
    }

    /// Column `index` of a checked `row`, a number from 0 to a billion (an amount per 100 g, a
    /// household measure or its grams).
    private static func amount(_ row: Row, _ index: Int, of table: String, file: String) throws -> Double {
        let value = try row.decode(Double.self, atIndex: index)
        guard (0...1e9).contains(value) else { throw damaged(row, table, file) }
        return value
    }

    /// The refusal, naming the table and the row by its first column (its uid, or a nutrient's
    /// name) when that one is text.
    private static func damaged(_ row: Row, _ table: String, _ file: String) -> Failure {
        let which = if case .string(let key) = (row[0] as DatabaseValue).storage, let column = row.columnNames.first {
            " (\(column) \(key))"
        } else {
            ""
        }
        return Failure.badInput("the nutrition reference has a value of the wrong type or out of range in \(table)\(which): run "
                                + "scripts/nutrition-reference --force", at: file)
    }
}
