import GRDB

/// Every menu item of a snapshot read once and counted by what the report page groups items by:
/// restaurant and day, source and day, restaurant, meal and label. The page's charts each read
/// these counts, so the page costs one pass over the items, whatever the number of its charts;
/// joining every item to its meal, day, section and food once per chart took most of the page's
/// time on a year of menus.
///
/// An item whose meal, section or food the snapshot lacks (a file given on the command line may
/// be any file) is left out of the counts that need it, as a join leaves it out.
public struct ServedItems: Sendable {
    /// The days with at least one item.
    public var servedDays: ServedDays
    /// Every row of `menu_item`.
    public var itemCount: Int
    /// Items whose food carries a label (`ReportQueries.labelledFoods`).
    public var labelledItemCount: Int
    /// Items per restaurant (named as `ReportQueries.restaurantName` says) and day, by restaurant
    /// then date.
    public var perRestaurantDay: [RestaurantDayItems]
    /// Items and labelled items per source and day, by source then date.
    public var perSourceDay: [SourceDayLabels]
    /// Each restaurant's diet counts, by name; nil for a snapshot from before the vocabulary.
    public var diets: [RestaurantDiets]?
    /// Items per meal (by name), food and label version, the count that `servedLabels` weighs
    /// each label by.
    var perMealLabel: [MealLabel: Int]

    struct MealLabel: Hashable, Sendable {
        var meal: String
        var foodID: String
        var version: Int
    }
}

extension ReportQueries {
    /// The snapshot's menu items, read once and counted (`ServedItems`).
    public func servedItems() throws -> ServedItems {
        let meals = try mealsByID()
        let restaurants = try restaurantsBySection()
        let foods = try foodsByID()
        var tally = Tally()
        let items = try Row.fetchCursor(db, sql: """
            SELECT meal_id, section_id, food_id, coalesce(label_version, 1) AS label_version FROM menu_item
            """)
        while let item = try items.next() {
            let mealID = try item.decode(Int64?.self, atIndex: 0), sectionID = try item.decode(Int64?.self, atIndex: 1)
            let foodID = try item.decode(String?.self, atIndex: 2) ?? ""
            tally.add(meal: mealID.flatMap { meals[$0] }, restaurant: sectionID.flatMap { restaurants[$0] },
                      food: foods[foodID], foodID: foodID, version: try item.decode(Int.self, atIndex: 3))
        }
        return tally.result(diets: try db.tableExists("code_term"))
    }

    private struct MealFacts {
        var name: String
        var day: Int64
        var date: String
    }

    private struct FoodFacts {
        var source: String
        var labelled: Bool
        var vegan: Bool
        var vegetarian: Bool
    }

    private func mealsByID() throws -> [Int64: MealFacts] {
        var meals: [Int64: MealFacts] = [:]
        for row in try Row.fetchAll(db, sql: """
            SELECT m.id AS meal_id, m.name AS meal, d.id AS day_id, d.date FROM meal m JOIN service_day d ON d.id = m.service_day_id
            """) {
            meals[try row.decode(forColumn: "meal_id")] = MealFacts(
                name: try row.decode(forColumn: "meal"), day: try row.decode(forColumn: "day_id"),
                date: try row.decode(forColumn: "date"))
        }
        return meals
    }

    private func restaurantsBySection() throws -> [Int64: String] {
        var restaurants: [Int64: String] = [:]
        for row in try Row.fetchAll(db, sql: """
            SELECT s.id AS section_id, \(try restaurantName()) AS restaurant
            FROM section s JOIN restaurant r ON r.id = s.restaurant_id
            """) {
            restaurants[try row.decode(forColumn: "section_id")] = try row.decode(forColumn: "restaurant")
        }
        return restaurants
    }

    /// Each food's source, whether it carries a label, and what it means in the one vocabulary
    /// (vegan, and vegetarian or vegan) where the snapshot has it.
    private func foodsByID() throws -> [String: FoodFacts] {
        let labelled = Set(try String.fetchAll(db, sql: try labelledFoods()))
        var vegan = Set<String>(), vegetarian = Set<String>()
        if try db.tableExists("code_term") {
            for row in try Row.fetchAll(db, sql: """
                SELECT fc.food_id, max(ct.term = 'vegan') AS vegan, max(ct.term IN ('vegan', 'vegetarian')) AS vegetarian
                FROM food_code fc JOIN code_term ct ON ct.code = fc.code GROUP BY fc.food_id
                """) {
                let id: String = try row.decode(forColumn: "food_id")
                if try row.decode(Bool.self, forColumn: "vegan") { vegan.insert(id) }
                if try row.decode(Bool.self, forColumn: "vegetarian") { vegetarian.insert(id) }
            }
        }
        var foods: [String: FoodFacts] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT id, source FROM food") {
            let id: String = try row.decode(forColumn: "id")
            foods[id] = FoodFacts(source: try row.decode(forColumn: "source"), labelled: labelled.contains(id),
                                  vegan: vegan.contains(id), vegetarian: vegetarian.contains(id))
        }
        return foods
    }

    /// The counts as the items go by; an item whose food is not in `food` still counts wherever
    /// no food fact is needed.
    private struct Tally {
        var items = 0, labelled = 0
        var days: [Int64: String] = [:]
        var perRestaurantDay: [RestaurantDay: Int] = [:]
        var perSourceDay: [SourceDay: Share] = [:]
        var perRestaurant: [String: RestaurantCounts] = [:]
        var perMealLabel: [ServedItems.MealLabel: Int] = [:]

        struct RestaurantDay: Hashable { var restaurant: String, date: String }
        struct SourceDay: Hashable { var source: String, date: String }

        struct Share {
            var items = 0, labelled = 0

            mutating func add(labelled isLabelled: Bool) {
                items += 1
                if isLabelled { labelled += 1 }
            }
        }

        struct RestaurantCounts {
            var items = 0, vegan = 0, vegetarian = 0
            var days = Set<Int64>()

            mutating func add(day: Int64, food: FoodFacts?) {
                items += 1
                days.insert(day)
                if food?.vegan == true { vegan += 1 }
                if food?.vegetarian == true { vegetarian += 1 }
            }
        }

        mutating func add(meal: MealFacts?, restaurant: String?, food: FoodFacts?, foodID: String, version: Int) {
            items += 1
            if food?.labelled == true { labelled += 1 }
            guard let meal else { return }
            days[meal.day] = meal.date
            perMealLabel[ServedItems.MealLabel(meal: meal.name, foodID: foodID, version: version), default: 0] += 1
            if let food {
                perSourceDay[SourceDay(source: food.source, date: meal.date), default: Share()].add(labelled: food.labelled)
            }
            guard let restaurant else { return }
            perRestaurantDay[RestaurantDay(restaurant: restaurant, date: meal.date), default: 0] += 1
            perRestaurant[restaurant, default: RestaurantCounts()].add(day: meal.day, food: food)
        }

        /// The counts in the order the page shows them: by name, then date, as SQLite sorts text.
        func result(diets withVocabulary: Bool) -> ServedItems {
            let sortedDays = days.values.sorted(by: Self.binary)
            return ServedItems(
                servedDays: ServedDays(first: sortedDays.first, last: sortedDays.last, count: days.count),
                itemCount: items, labelledItemCount: labelled,
                perRestaurantDay: perRestaurantDay.map { RestaurantDayItems(restaurant: $0.key.restaurant, date: $0.key.date,
                                                                            items: $0.value) }
                    .sorted { Self.binary(($0.restaurant, $0.date), ($1.restaurant, $1.date)) },
                perSourceDay: perSourceDay.map { SourceDayLabels(source: $0.key.source, date: $0.key.date,
                                                                 items: $0.value.items, labelled: $0.value.labelled) }
                    .sorted { Self.binary(($0.source, $0.date), ($1.source, $1.date)) },
                diets: withVocabulary ? perRestaurant.map { name, counts in
                    RestaurantDiets(restaurant: name, days: counts.days.count, items: counts.items, vegan: counts.vegan,
                                    vegetarian: counts.vegetarian)
                }.sorted { Self.binary($0.restaurant, $1.restaurant) } : nil,
                perMealLabel: perMealLabel)
        }

        /// SQLite's order of text (BINARY: byte by byte of UTF-8).
        static func binary(_ first: String, _ second: String) -> Bool {
            first.utf8.lexicographicallyPrecedes(second.utf8)
        }

        static func binary(_ first: (String, String), _ second: (String, String)) -> Bool {
            first.0 == second.0 ? binary(first.1, second.1) : binary(first.0, second.0)
        }
    }
}
