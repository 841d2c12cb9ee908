import FoodModel
import Foundation
import GRDB

/// Writes what a run holds besides its menus (those went in as they came, through
/// `MenuWriter`) and its foods (`FoodTables`): the nutrients' names, hours and recipes, in a
/// deterministic order so that the same inputs give byte-for-byte the same rows.
struct DatasetWriter {
    let db: Database
    /// The run's scratch path, for gathering a catalogue too large to hold (`RecipeIntake`).
    let scratch: URL

    /// Everything but the food tables (`FoodTables`): the nutrients' names, hours and recipes.
    /// Returns warnings about what was written (ids a dump read more than once).
    func writeOthers(_ dataset: Dataset) throws -> [String] {
        try FoodTables.writeNutrientNames(dataset.foods.values.sorted { $0.id < $1.id }, into: db)
        try writeHours(dataset.hours)
        return try writeRecipes(dataset)
    }

    private func writeHours(_ hours: [HoursEntry]) throws {
        let statement = try db.cachedStatement(sql: """
            INSERT INTO hours (id, restaurant, date, meal, opens, closes, is_closed, note, campus)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        let ordered = hours.enumerated().sorted { a, b in
            let left = (a.element.date?.description ?? "", a.offset)
            let right = (b.element.date?.description ?? "", b.offset)
            return left < right
        }
        for (index, entry) in ordered.map(\.element).enumerated() {
            try statement.execute(arguments: [
                index + 1, entry.restaurant, entry.date?.description, entry.meal, entry.opens,
                entry.closes, entry.isClosed, entry.note, entry.campus,
            ])
        }
    }

    /// The recipes in id order, then the categories, areas and tags they name. A catalogue set
    /// aside in spools (a dump) is gathered in the intake first, so that it is written one
    /// recipe at a time in the same order, with the same rows, as a catalogue held in memory.
    /// Returns a warning per spool that read an id more than once.
    private func writeRecipes(_ dataset: Dataset) throws -> [String] {
        let rows = try RecipeRows(db, searchFile: URL(fileURLWithPath: scratch.path + "-recipe-search"))
        var warnings: [String] = []
        if dataset.recipeSpools.isEmpty {
            for value in dataset.recipes.values.sorted(by: { $0.id < $1.id }) {
                try rows.insert(value)
            }
        } else if dataset.recipes.isEmpty, dataset.recipeSpools.count == 1, let spool = dataset.recipeSpools.first,
                  spool.isInIdOrder {
            // A dump as TheMealDB lists it: already one recipe per id, in id order.
            try spool.forEachBatch { batch in
                for value in batch { try rows.insert(value) }
            }
        } else {
            let intake = try RecipeIntake(file: URL(fileURLWithPath: scratch.path + "-recipe-intake"))
            try intake.add(spools: dataset.recipeSpools, held: dataset.recipes.values)
            try intake.forEachInOrder(rows.insert)
            warnings = intake.duplicates.sorted { $0.key < $1.key }.map { spool, positions in
                Self.duplicatesWarning(positions, origin: dataset.recipeSpools[spool].origin)
            }
        }
        try rows.writeNames(categories: dataset.categories)
        try rows.writeSearchIndex()
        return warnings
    }

    /// Two meals under one idMeal: one row per id in the snapshot, the last one read, and the
    /// duplicates named.
    private static func duplicatesWarning(_ positions: [RecipeID: [Int]], origin: String) -> String {
        let duplicates = positions.keys.sorted().map { id in
            "\(id.id) (meals \((positions[id] ?? []).map(String.init).joined(separator: ", ")))"
        }
        let listed = duplicates.prefix(5).joined(separator: "; ")
        let more = duplicates.count > 5 ? "; and \(duplicates.count - 5) more" : ""
        return "\(origin): \(duplicates.count) idMeal(s) name more than one meal, the last of each kept: " + listed + more
    }
}

/// The rows of recipes written one at a time, with the names they use gathered on the way:
/// categories, areas and tags are written after them, sorted, and each ingredient with the
/// first spelling met. Their search index is built beside them (`RecipeSearchBuild`).
private final class RecipeRows {
    private let db: Database
    private let searchFile: URL
    /// Made with the first recipe: a run without recipes has nothing to index.
    private var search: RecipeSearchBuild?
    private let recipe: RowInsert
    private let recipeTag: RowInsert
    private let line: RowInsert
    private let ingredient: RowInsert
    private var ingredientKeys = Set<String>()
    private var categories = Set<String>()
    private var areas = Set<String>()
    private var tags = Set<String>()

    init(_ db: Database, searchFile: URL) throws {
        self.db = db
        self.searchFile = searchFile
        recipe = try RowInsert(db, sql: """
            INSERT INTO recipe (id, source, source_id, name, alternate_name, category, area,
                                instructions, thumbnail_url, youtube_url, source_url, modified_at, ingredients, tags)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        recipeTag = try RowInsert(db, sql: "INSERT OR IGNORE INTO recipe_tag (recipe_id, tag) VALUES (?, ?)")
        line = try RowInsert(db, sql: """
            INSERT INTO recipe_ingredient (recipe_id, position, ingredient_key, ingredient_name,
                measure_raw, measure_kind, quantity, quantity_numerator, quantity_denominator,
                quantity_max, unit, unit_system, confidence)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        ingredient = try RowInsert(db, sql: "INSERT INTO ingredient (key, name) VALUES (?, ?)")
    }

    func insert(_ value: Recipe) throws {
        let id = value.id.description
        let instructions = value.steps.joined(separator: "\n")
        let ingredientNames = Self.searchText(value.ingredients.sorted { $0.position < $1.position }.map(\.ingredient.name))
        let tagNames = Self.searchText(Set(value.tags).sorted())
        try recipe.insert(
            id, value.id.source, value.id.id, value.name, value.alternateName, value.category, value.area,
            instructions, value.thumbnailURL, value.youtubeURL, value.sourceURL, value.modifiedAt, ingredientNames, tagNames)
        if search == nil {
            search = try RecipeSearchBuild(file: searchFile,
                                           declaration: SearchIndex.recipes.contentlessDeclaration(in: db))
        }
        try search?.add(RecipeSearchBuild.Entry(rowid: db.lastInsertedRowID, name: value.name, ingredients: ingredientNames,
                                                tags: tagNames, instructions: instructions))
        if let category = value.category { categories.insert(category) }
        if let area = value.area { areas.insert(area) }
        for name in value.tags {
            tags.insert(name)
            try recipeTag.insert(id, name)
        }
        for ingredientLine in value.ingredients {
            if ingredientKeys.insert(ingredientLine.ingredient.key).inserted {
                try ingredient.insert(ingredientLine.ingredient.key, ingredientLine.ingredient.name)
            }
            let measure = ingredientLine.measure
            try line.insert(
                id, ingredientLine.position, ingredientLine.ingredient.key, ingredientLine.ingredient.name,
                measure.raw, measure.kind.rawValue, measure.quantity?.doubleValue, measure.quantity?.numerator,
                measure.quantity?.denominator, measure.maximum?.doubleValue, measure.unit, measure.unitSystem,
                measure.confidence)
        }
    }

    /// `recipe_fts`: the index built beside the rows, or, without recipes, the empty one made again.
    func writeSearchIndex() throws {
        if let search {
            try search.copy(into: db)
        } else {
            try SearchIndex.recipes.rebuild(db)
        }
    }

    /// A recipe's ingredient names or tags as the one text its search indexes, NULL when it has none.
    private static func searchText(_ names: [String]) -> String? {
        names.isEmpty ? nil : names.joined(separator: ", ")
    }

    /// The categories (those described by the source, and those only named by a recipe), areas
    /// and tags, each sorted by name.
    func writeNames(categories described: [String: Category]) throws {
        var all = described
        for name in categories where all[name] == nil {
            all[name] = Category(name: name)
        }
        let category = try db.cachedStatement(
            sql: "INSERT INTO category (name, description, thumbnail_url) VALUES (?, ?, ?)")
        for value in all.values.sorted(by: { $0.name < $1.name }) {
            try category.execute(arguments: [value.name, value.description, value.thumbnailURL])
        }
        let area = try db.cachedStatement(sql: "INSERT INTO area (name) VALUES (?)")
        for name in areas.sorted() {
            try area.execute(arguments: [name])
        }
        let tag = try db.cachedStatement(sql: "INSERT INTO tag (name) VALUES (?)")
        for name in tags.sorted() {
            try tag.execute(arguments: [name])
        }
    }
}
