import FoodModel
import GRDB

/// Writes service days into the snapshot one at a time, as partitions finish, so that the
/// menus of a decade go to disk instead of waiting in memory for the last day.
///
/// Ids say where a row is, so the same row keeps its id from one night to the next and a change
/// set between two snapshots stays as small as what changed (docs/changes.md): a day is
/// `yyyymmdd`, a meal its day times 100 plus its place in the day, a menu item its meal times
/// 100,000 plus its place on the meal's page. Restaurants and sections are numbered as they first
/// appear; readers and `diff` join them by name. A date that arrives again (a second source
/// serving the same day) adds its meals after those already written.
final class MenuWriter {
    private var writtenDays: Set<ServiceDate> = []
    private var mealsPerDay: [ServiceDate: Int] = [:]
    private var restaurantIds: [String: Int] = [:]
    private var sectionIds: [SectionKey: Int] = [:]

    /// Meals a day may have, and items a meal's page may list, for ids to stay apart.
    static let mealsPerDayLimit = 99
    static let itemsPerMealLimit = 99_999

    private struct SectionKey: Hashable {
        var restaurant: String
        var name: String
    }

    static func dayId(_ date: ServiceDate) -> Int { date.year * 10_000 + date.month * 100 + date.day }

    func append(_ day: ServiceDay, labelVersions: [FoodID: Int], to db: Database) throws {
        let dayId = Self.dayId(day.date)
        if writtenDays.insert(day.date).inserted {
            try db.cachedStatement(sql: "INSERT INTO service_day (id, date, weekday) VALUES (?, ?, ?)")
                .execute(arguments: [dayId, day.date.description, day.date.isoWeekday])
        }
        let mealStatement = try RowInsert(
            db, sql: "INSERT INTO meal (id, service_day_id, name, position) VALUES (?, ?, ?, ?)")
        let itemStatement = try RowInsert(db, sql: """
            INSERT INTO menu_item (id, meal_id, section_id, food_id, position, name, portion, description,
                                   planned_portions, served_with_id, label_version)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        for meal in day.meals {
            let mealPosition = mealsPerDay[day.date, default: 0] + 1
            mealsPerDay[day.date] = mealPosition
            guard mealPosition <= Self.mealsPerDayLimit else {
                throw SnapshotError("\(day.date) has more than \(Self.mealsPerDayLimit) meals, more than a meal id can number",
                                    path: "\(day.date) \(meal.name)")
            }
            let mealId = dayId * 100 + mealPosition
            try mealStatement.insert(mealId, dayId, meal.name, mealPosition)
            var position = 0
            for restaurant in meal.restaurants {
                let restaurantId = try self.restaurantId(restaurant.name, db)
                for section in restaurant.sections {
                    let sectionId = try self.sectionId(SectionKey(restaurant: restaurant.name, name: section.name),
                                                       restaurantId: restaurantId, db)
                    let sectionStart = position + 1
                    for item in section.foods {
                        position += 1
                        guard position <= Self.itemsPerMealLimit else {
                            throw SnapshotError("\(day.date) \(meal.name) lists more than \(Self.itemsPerMealLimit) items, more than an item id can number",
                                                path: "\(day.date) \(meal.name)")
                        }
                        // A side's dish comes before it in its section, so its id is already written.
                        let dishPosition = item.servedWith.map { sectionStart + $0 }
                        let dish = dishPosition.flatMap { $0 >= sectionStart && $0 < position ? mealId * 100_000 + $0 : nil }
                        try itemStatement.insert(mealId * 100_000 + position, mealId, sectionId, item.food.description,
                                                 position, item.name, item.portion, item.description,
                                                 item.plannedPortions, dish, labelVersions[item.food])
                    }
                }
            }
        }
    }

    private func restaurantId(_ name: String, _ db: Database) throws -> Int {
        if let known = restaurantIds[name] { return known }
        let id = restaurantIds.count + 1
        restaurantIds[name] = id
        try db.cachedStatement(sql: "INSERT INTO restaurant (id, name) VALUES (?, ?)").execute(arguments: [id, name])
        return id
    }

    private func sectionId(_ key: SectionKey, restaurantId: Int, _ db: Database) throws -> Int {
        if let known = sectionIds[key] { return known }
        let id = sectionIds.count + 1
        sectionIds[key] = id
        try db.cachedStatement(sql: "INSERT INTO section (id, restaurant_id, name) VALUES (?, ?, ?)")
            .execute(arguments: [id, restaurantId, key.name])
        return id
    }
}
