import FoodModel
import GRDB

/// Every menu item of a snapshot read once and counted by what the report page groups items by:
/// restaurant and day, source and day, restaurant, meal and label. The page's charts each read
/// these counts, so the page costs one pass over the items, whatever the number of its charts;
/// joining every item to its meal, day, section and food once per chart took most of the page's
/// time on a year of menus.
///
/// An item whose meal, section or food the snapshot lacks (a file given on the command line may
/// be any file) is left out of the counts that need it, as a join leaves it out.
public struct ServedItems: Equatable, Sendable {
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
    /// The snapshot's menu items, read once and counted (`ServedItems`). Meals, restaurants and
    /// foods are numbered first, so that an item costs one lookup of its food's id and counts
    /// under numbers: keyed by names and dates, the counting was most of the page's time.
    ///
    /// With `store`, the items are counted day by day from the counts kept there, each day whose
    /// rows changed read again, and the counts of this snapshot's days are kept there for the
    /// next page (`ServedDayCounts`). A snapshot whose days do not account for every item (one
    /// from before `_day_rows`, a file edited by hand) is read item by item, as without `store`.
    public func servedItems(keeping store: ServedDayCountsStore? = nil) throws -> ServedItems {
        let meals = try mealsByID()
        let restaurants = try restaurantsBySection()
        let foods = try numberedFoods()
        var tally = Tally(restaurants: restaurants.names.values.count, foods: foods)
        let kept = store?.read()
        if let store, let counts = try dayCounts(kept: kept) {
            tally.add(counts, meals: meals, restaurants: restaurants.bySection)
            store.save(counts, over: kept)
        } else {
            try countEveryItem(into: &tally, meals: meals, restaurants: restaurants.bySection)
        }
        tally.finishRuns()
        return tally.result(meals: meals, restaurants: restaurants.names, diets: try db.tableExists("code_term"))
    }

    private func countEveryItem(into tally: inout Tally, meals: Meals, restaurants: [Int64: Int32]) throws {
        let items = try Row.fetchCursor(db, sql: """
            SELECT meal_id, section_id, food_id, coalesce(label_version, 1) AS label_version FROM menu_item
            """)
        // Items come in id order, a meal's and a section's together: each is looked up when it
        // changes, not for every item.
        var meal: (id: Int64?, facts: MealFacts?) = (nil, nil)
        var section: (id: Int64?, restaurant: Int32?) = (nil, nil)
        while let item = try items.next() {
            let mealID = try item.decode(Int64?.self, atIndex: 0), sectionID = try item.decode(Int64?.self, atIndex: 1)
            if mealID != meal.id { meal = (mealID, mealID.flatMap { meals.byID[$0] }) }
            if sectionID != section.id { section = (sectionID, sectionID.flatMap { restaurants[$0] }) }
            let food = tally.foods.ids.number(of: try item.decode(String?.self, atIndex: 2) ?? "")
            tally.add(meal: meal.facts, restaurant: section.restaurant, food: food,
                      version: try item.decode(Int.self, atIndex: 3), items: 1)
        }
    }

    /// Every day's counts: `kept`'s where a day's rows are those it counted, the day's items read
    /// again where not. Nil when the days cannot stand for every item: no `_day_rows` or no
    /// writing build recorded, an item without its meal or section, or items outside the days.
    private func dayCounts(kept: ServedDayCounts?) throws -> ServedDayCounts? {
        guard try db.tableExists("_day_rows"),
              let rowsCode = try String.fetchOne(db, sql: "SELECT value FROM _meta WHERE key = ?",
                                                 arguments: [StagingSnapshot.dayRowsCodeKey])
        else { return nil }
        var sections: [Int64: ServedDayCounts.SectionRow] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT id, restaurant_id, name FROM section") {
            guard let id = try row.decode(Int64?.self, atIndex: 0), let restaurant = try row.decode(Int64?.self, atIndex: 1)
            else { return nil }
            sections[id] = ServedDayCounts.SectionRow(restaurant: restaurant, name: try row.decode(String?.self, atIndex: 2) ?? "")
        }
        let kept = kept?.rowsCode == rowsCode ? kept : nil
        var counts = ServedDayCounts(rowsCode: rowsCode, sections: sections, foods: [], days: [:])
        // Numbered after the kept foods, which keep their numbers: a kept day's counts hold them.
        var foods = Numbering<String>()
        for food in kept?.foods ?? [] { _ = foods.number(of: food) }
        var items = 0
        for row in try Row.fetchAll(db, sql: "SELECT date, rows_sha256 FROM _day_rows ORDER BY date") {
            guard let date = try row.decode(String?.self, atIndex: 0), let digest = try row.decode(String?.self, atIndex: 1),
                  let day = ServiceDate(date) else { return nil }
            let counted: ServedDayCounts.Day
            if let kept, let keptDay = kept.days[date], keptDay.rowsDigest == digest,
               keptDay.runs.allSatisfy({ kept.sections[$0.section] == sections[$0.section] }) {
                counted = keptDay
            } else {
                guard let read = try itemsOfDay(day, digest: digest, foods: &foods) else { return nil }
                counted = read
                counts.counted.insert(date)
            }
            items += counted.groups.reduce(0) { $0 + $1.items }
            counts.days[date] = counted
        }
        // Every item is some day's, or the days do not stand for the snapshot.
        guard try Int.fetchOne(db, sql: "SELECT count(*) FROM menu_item") == items else { return nil }
        counts.foods = foods.values
        return counts
    }

    /// `day`'s items read from the snapshot (their ids are the day's, `MenuWriter.ids`), grouped;
    /// nil for an item without its meal or section.
    private func itemsOfDay(_ day: ServiceDate, digest: String, foods: inout Numbering<String>) throws
        -> ServedDayCounts.Day? {
        let id = MenuWriter.dayId(day)
        guard let range = MenuWriter.ids(in: "menu_item", days: id...id) else { return nil }
        var counted = ServedDayCounts.Day(rowsDigest: digest)
        // Sorted so that a meal's section is one run and a food's items in it one group: in id
        // order a meal's items come section by section only by chance.
        let items = try Row.fetchCursor(db, sql: """
            SELECT meal_id, section_id, food_id, coalesce(label_version, 1) AS version FROM menu_item
            WHERE id BETWEEN ? AND ? ORDER BY meal_id, section_id, food_id, version
            """, arguments: [range.lowerBound, range.upperBound])
        while let item = try items.next() {
            guard let meal = try item.decode(Int64?.self, atIndex: 0), let section = try item.decode(Int64?.self, atIndex: 1)
            else { return nil }
            let food = foods.number(of: try item.decode(String?.self, atIndex: 2) ?? "")
            let version = try item.decode(Int.self, atIndex: 3)
            if let run = counted.runs.last, run.meal == meal, run.section == section {
                if let group = counted.groups.last, group.food == food, group.version == version {
                    counted.groups[counted.groups.count - 1].items += 1
                    continue
                }
                counted.runs[counted.runs.count - 1].groupCount += 1
            } else {
                counted.runs.append(ServedDayCounts.Day.Run(meal: meal, section: section, groupCount: 1))
            }
            counted.groups.append(ServedDayCounts.Day.Group(food: food, version: version, items: 1))
        }
        return counted
    }

    /// A meal's name and day, as numbers into `Meals.names` and `Meals.dates`.
    private struct MealFacts {
        var name: Int32
        var day: Int32
    }

    private struct Meals {
        var byID: [Int64: MealFacts] = [:]
        var names = Numbering<String>()
        var days = Numbering<Int64>()
        /// Each day's date, by its number.
        var dates: [String] = []
    }

    private struct FoodFacts {
        var source: Int32
        var labelled: Bool
        var vegan: Bool
        var vegetarian: Bool
    }

    /// The foods numbered, with their facts and the names of their sources.
    private struct Foods {
        var ids = Numbering<String>()
        var facts: [FoodFacts] = []
        var sources = Numbering<String>()
    }

    /// Values numbered in the order first met, and the values by number.
    private struct Numbering<Value: Hashable> {
        private(set) var values: [Value] = []
        private var numbers: [Value: Int32] = [:]

        mutating func number(of value: Value) -> Int32 {
            if let number = numbers[value] { return number }
            let number = Int32(values.count)
            numbers[value] = number
            values.append(value)
            return number
        }

        subscript(number: Int32) -> Value { values[Int(number)] }
    }

    private func mealsByID() throws -> Meals {
        var meals = Meals()
        for row in try Row.fetchAll(db, sql: """
            SELECT m.id AS meal_id, m.name AS meal, d.id AS day_id, d.date FROM meal m JOIN service_day d ON d.id = m.service_day_id
            """) {
            let day = meals.days.number(of: try row.decode(forColumn: "day_id"))
            if Int(day) == meals.dates.count { meals.dates.append(try row.decode(forColumn: "date")) }
            meals.byID[try row.decode(forColumn: "meal_id")] = MealFacts(
                name: meals.names.number(of: try row.decode(forColumn: "meal")), day: day)
        }
        return meals
    }

    /// Each section's restaurant, numbered in `names` (restaurants named as `restaurantName`
    /// says, one number per name).
    private func restaurantsBySection() throws -> (bySection: [Int64: Int32], names: Numbering<String>) {
        var bySection: [Int64: Int32] = [:], names = Numbering<String>()
        for row in try Row.fetchAll(db, sql: """
            SELECT s.id AS section_id, \(try restaurantName()) AS restaurant
            FROM section s JOIN restaurant r ON r.id = s.restaurant_id
            """) {
            bySection[try row.decode(forColumn: "section_id")] = names.number(of: try row.decode(forColumn: "restaurant"))
        }
        return (bySection, names)
    }

    /// Each food's source, whether it carries a label, and what it means in the one vocabulary
    /// (vegan, and vegetarian or vegan) where the snapshot has it.
    private func numberedFoods() throws -> Foods {
        let labelled = Set(try String.fetchAll(db, sql: try labelledFoods()))
        var vegan = Set<String>(), vegetarian = Set<String>()
        if try db.tableExists("code_term") {
            let rows = try Row.fetchCursor(db, sql: """
                SELECT fc.food_id, max(ct.term = 'vegan') AS vegan, max(ct.term IN ('vegan', 'vegetarian')) AS vegetarian
                FROM food_code fc JOIN code_term ct ON ct.code = fc.code GROUP BY fc.food_id
                """)
            while let row = try rows.next() {
                let id = try row.decode(String.self, atIndex: 0)
                if try row.decode(Bool.self, atIndex: 1) { vegan.insert(id) }
                if try row.decode(Bool.self, atIndex: 2) { vegetarian.insert(id) }
            }
        }
        var foods = Foods()
        let rows = try Row.fetchCursor(db, sql: "SELECT id, source FROM food")
        while let row = try rows.next() {
            let id = try row.decode(String.self, atIndex: 0)
            // A file given on the command line may repeat an id: its first row counts.
            guard Int(foods.ids.number(of: id)) == foods.facts.count else { continue }
            foods.facts.append(FoodFacts(source: foods.sources.number(of: try row.decode(String.self, atIndex: 1)),
                                         labelled: labelled.contains(id), vegan: vegan.contains(id),
                                         vegetarian: vegetarian.contains(id)))
        }
        return foods
    }

    /// The counts as the items go by, under numbers; an item whose food is not in `food` is
    /// numbered after the foods and still counts wherever no food fact is needed.
    ///
    /// Items of one restaurant on one day, and of one source on one day, come one after another:
    /// each such run is counted apart and added to its key's count when the key changes
    /// (`finishRuns` adds the last), so that an item costs a lookup of its label's count and
    /// little else. Runs in any order still add up; they are only shorter.
    private struct Tally {
        var items = 0, labelled = 0
        var foods: Foods
        var days = Set<Int32>()
        var perRestaurantDay: [Int64: Int] = [:]
        var perSourceDay: [Int64: Share] = [:]
        var perRestaurant: [RestaurantCounts]
        /// Items per meal and label version 2 and later (and any other a file holds); those of
        /// version 1 are in `firstVersionItems`.
        private var perMealLabel: [MealLabel: Int] = [:]
        /// Items of the first label version, which most items print, per meal (by number) and
        /// food (by number): counted in place, where a dictionary hashed three numbers per item.
        private var firstVersionItems: [[Int]] = []
        private var lastDay: Int32?
        private var restaurantRun: (key: Int64, restaurant: Int32, day: Int32, items: Int)?
        private var sourceRun: (key: Int64, share: Share)?

        init(restaurants: Int, foods: Foods) {
            self.foods = foods
            perRestaurant = Array(repeating: RestaurantCounts(), count: restaurants)
        }

        struct MealLabel: Hashable { var meal: Int32, food: Int32, version: Int }

        struct Share {
            var items = 0, labelled = 0

            mutating func add(_ count: Int, labelled isLabelled: Bool) {
                items += count
                if isLabelled { labelled += count }
            }
        }

        struct RestaurantCounts {
            var items = 0, vegan = 0, vegetarian = 0
            var days = Set<Int32>()

            mutating func add(_ count: Int, food: FoodFacts?) {
                items += count
                if food?.vegan == true { vegan += count }
                if food?.vegetarian == true { vegetarian += count }
            }
        }

        static func pair(_ first: Int32, _ second: Int32) -> Int64 { Int64(first) << 32 | Int64(UInt32(bitPattern: second)) }

        /// `count` items of one meal, restaurant, food and label version.
        mutating func add(meal: MealFacts?, restaurant: Int32?, food number: Int32, version: Int, items count: Int) {
            let food = Int(number) < foods.facts.count ? foods.facts[Int(number)] : nil
            items += count
            if food?.labelled == true { labelled += count }
            guard let meal else { return }
            if meal.day != lastDay {
                days.insert(meal.day)
                lastDay = meal.day
            }
            if version == 1 {
                addFirstVersion(count, meal: Int(meal.name), food: Int(number))
            } else {
                perMealLabel[MealLabel(meal: meal.name, food: number, version: version), default: 0] += count
            }
            if let food {
                let key = Self.pair(food.source, meal.day)
                if key != sourceRun?.key {
                    finishSourceRun()
                    sourceRun = (key, Share())
                }
                sourceRun?.share.add(count, labelled: food.labelled)
            }
            guard let restaurant else { return }
            let key = Self.pair(restaurant, meal.day)
            if key != restaurantRun?.key {
                finishRestaurantRun()
                restaurantRun = (key, restaurant, meal.day, 0)
            }
            restaurantRun?.items += count
            perRestaurant[Int(restaurant)].add(count, food: food)
        }

        /// Every day's counts, their foods numbered as the tally numbers them.
        mutating func add(_ counts: ServedDayCounts, meals: Meals, restaurants: [Int64: Int32]) {
            let numbers = counts.foods.map { foods.ids.number(of: $0) }
            for (_, day) in counts.days.sorted(by: { $0.key < $1.key }) {
                var groups = day.groups[...]
                for run in day.runs {
                    let meal = meals.byID[run.meal], restaurant = restaurants[run.section]
                    for group in groups.prefix(run.groupCount) {
                        add(meal: meal, restaurant: restaurant, food: numbers[Int(group.food)], version: group.version,
                            items: group.items)
                    }
                    groups = groups.dropFirst(run.groupCount)
                }
            }
        }

        private mutating func addFirstVersion(_ count: Int, meal: Int, food: Int) {
            if meal >= firstVersionItems.count {
                firstVersionItems += Array(repeating: [], count: meal + 1 - firstVersionItems.count)
            }
            if food >= firstVersionItems[meal].count {
                let size = max(food + 1, foods.facts.count)
                firstVersionItems[meal] += Array(repeating: 0, count: size - firstVersionItems[meal].count)
            }
            firstVersionItems[meal][food] += count
        }

        /// Adds the runs still being counted.
        mutating func finishRuns() {
            finishSourceRun()
            finishRestaurantRun()
        }

        private mutating func finishSourceRun() {
            guard let run = sourceRun else { return }
            perSourceDay[run.key, default: Share()].items += run.share.items
            perSourceDay[run.key, default: Share()].labelled += run.share.labelled
            sourceRun = nil
        }

        private mutating func finishRestaurantRun() {
            guard let run = restaurantRun else { return }
            perRestaurantDay[run.key, default: 0] += run.items
            perRestaurant[Int(run.restaurant)].days.insert(run.day)
            restaurantRun = nil
        }

        /// The counts in the order the page shows them: by name, then date, as SQLite sorts text.
        func result(meals: Meals, restaurants: Numbering<String>, diets withVocabulary: Bool) -> ServedItems {
            let sortedDays = days.map { meals.dates[Int($0)] }.sorted(by: Self.binary)
            let first = { (key: Int64) in Int(key >> 32) }, second = { (key: Int64) in Int(Int32(truncatingIfNeeded: key)) }
            return ServedItems(
                servedDays: ServedDays(first: sortedDays.first, last: sortedDays.last, count: days.count),
                itemCount: items, labelledItemCount: labelled,
                perRestaurantDay: perRestaurantDay.map {
                    RestaurantDayItems(restaurant: restaurants.values[first($0.key)], date: meals.dates[second($0.key)],
                                       items: $0.value)
                }.sorted { Self.binary(($0.restaurant, $0.date), ($1.restaurant, $1.date)) },
                perSourceDay: perSourceDay.map {
                    SourceDayLabels(source: foods.sources.values[first($0.key)], date: meals.dates[second($0.key)],
                                    items: $0.value.items, labelled: $0.value.labelled)
                }.sorted { Self.binary(($0.source, $0.date), ($1.source, $1.date)) },
                diets: withVocabulary ? zip(restaurants.values, perRestaurant).filter { $0.1.items > 0 }.map { name, counts in
                    RestaurantDiets(restaurant: name, days: counts.days.count, items: counts.items, vegan: counts.vegan,
                                    vegetarian: counts.vegetarian)
                }.sorted { Self.binary($0.restaurant, $1.restaurant) } : nil,
                perMealLabel: Dictionary(uniqueKeysWithValues: everyMealLabel.map { key, items in
                    (ServedItems.MealLabel(meal: meals.names[key.meal], foodID: foods.ids[key.food],
                                           version: key.version), items)
                }))
        }

        /// Items per meal, food and label version, of every version.
        private var everyMealLabel: [MealLabel: Int] {
            var every = perMealLabel
            for (meal, foods) in firstVersionItems.enumerated() {
                for (food, items) in foods.enumerated() where items > 0 {
                    every[MealLabel(meal: Int32(meal), food: Int32(food), version: 1)] = items
                }
            }
            return every
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
