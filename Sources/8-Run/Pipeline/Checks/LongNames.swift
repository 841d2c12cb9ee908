import FoodModel

/// Names longer than any a menu prints: a source that printed a café's name ten megabytes long
/// stored it in every row and line that names the café, and every later reader (the report
/// page, change files, PostgreSQL) paid for it again. Each such name is cut where it is stored,
/// at a character, to `limit` characters ending with an ellipsis, and the run says so once.
struct LongNames: Codable, Sendable {
    static let limit = 1_000
    static let ellipsis = "…"

    /// How many names were cut this run, and the first, with the partition it came from.
    private(set) var count = 0
    private(set) var first: Cut?

    init() {}

    /// The names a partition cut, as its parse cache entry kept them (`ParseCacheRest`).
    init(count: Int, first: Cut?) {
        self.count = count
        self.first = first
    }

    /// A name as it was stored, cut, and the partition it came from.
    struct Cut: Codable, Sendable {
        var name: String
        var partition: String
    }

    /// `name` cut to `limit` characters, its last the ellipsis; nil when it is not longer.
    static func shortened(_ name: String) -> String? {
        // No more bytes than `limit` means no more characters: most names stop here.
        guard name.utf8.count > limit,
              let end = name.index(name.startIndex, offsetBy: limit, limitedBy: name.endIndex), end < name.endIndex
        else { return nil }
        return String(name[..<name.index(name.startIndex, offsetBy: limit - 1)]) + ellipsis
    }

    /// Every name of `dataset` (meals, restaurants, sections, menu items, hours, foods and
    /// recipes) no longer than `limit`.
    mutating func shorten(_ dataset: inout Dataset, partition: String) {
        // Looked for first: changing a parse the parse cache also holds would copy it.
        guard Self.holdsLongName(dataset) else { return }
        for day in dataset.serviceDays.indices {
            for meal in dataset.serviceDays[day].meals.indices {
                cut(&dataset.serviceDays[day].meals[meal].name, partition)
                for restaurant in dataset.serviceDays[day].meals[meal].restaurants.indices {
                    cut(&dataset.serviceDays[day].meals[meal].restaurants[restaurant].name, partition)
                    for section in dataset.serviceDays[day].meals[meal].restaurants[restaurant].sections.indices {
                        cut(&dataset.serviceDays[day].meals[meal].restaurants[restaurant].sections[section].name,
                            partition)
                    }
                }
            }
            dataset.serviceDays[day].updateMenuItems { cut(&$0.name, partition) }
        }
        for entry in dataset.hours.indices {
            cut(&dataset.hours[entry].restaurant, partition)
            cut(&dataset.hours[entry].meal, partition)
        }
        for id in dataset.foods.keys { cut(&dataset.foods[id]!.name, partition) }
        for id in dataset.recipes.keys { cut(&dataset.recipes[id]!.name, partition) }
    }

    /// `food` with its name no longer than `limit`.
    mutating func shorten(_ food: Food, partition: String) -> Food {
        var food = food
        cut(&food.name, partition)
        return food
    }

    private static func holdsLongName(_ dataset: Dataset) -> Bool {
        func long(_ name: String) -> Bool { name.utf8.count > limit }
        for day in dataset.serviceDays {
            for meal in day.meals {
                if long(meal.name) { return true }
                for restaurant in meal.restaurants {
                    if long(restaurant.name) { return true }
                    for section in restaurant.sections where long(section.name) || section.foods.contains(where: { long($0.name) }) {
                        return true
                    }
                }
            }
        }
        return dataset.hours.contains { long($0.restaurant) || long($0.meal) }
            || dataset.foods.values.contains { long($0.name) } || dataset.recipes.values.contains { long($0.name) }
    }

    /// Counts the names `other` cut after those cut here (a partition's, taken in its turn).
    mutating func add(_ other: LongNames) {
        count += other.count
        if first == nil { first = other.first }
    }

    /// The run's one line about the names it cut, if it cut any.
    var warning: String? {
        guard let first else { return nil }
        return "\(count) name(s) longer than \(Self.limit) characters, more than any menu prints, stored cut to "
            + "\(Self.limit) with an ellipsis; the first, from \(first.partition), begins \"\(first.name.prefix(60))\""
    }

    /// Cuts `name` when it is too long, and counts it.
    private mutating func cut(_ name: inout String, _ partition: String) {
        guard let short = Self.shortened(name) else { return }
        count += 1
        if first == nil { first = Cut(name: short, partition: partition) }
        name = short
    }
}
