import FoodModel
import GRDB

/// Writes service days into the snapshot one at a time, as partitions finish, so that the
/// menus of a decade go to disk instead of waiting in memory for the last day.
///
/// Ids follow the order days arrive in (the pipeline's partition order: sources as listed,
/// dates ascending), which the same inputs always give, so two runs write the same rows.
/// Restaurants and sections are numbered as they first appear; readers and `diff` join them by
/// name. A date that arrives again (a second source serving the same day) adds its meals to
/// the day already written. Rows are only ever appended, so rowids stay 1…n with no gap, which
/// the search index relies on (`SnapshotSchema.v3Search`).
final class MenuWriter {
    private var dayIds: [ServiceDate: Int] = [:]
    private var mealsPerDay: [Int: Int] = [:]
    private var restaurantIds: [String: Int] = [:]
    private var sectionIds: [SectionKey: Int] = [:]
    private var mealId = 0
    private var itemId = 0

    private struct SectionKey: Hashable {
        var restaurant: String
        var name: String
    }

    func append(_ day: ServiceDay, labelVersions: [FoodID: Int], to db: Database) throws {
        let dayId: Int
        if let known = dayIds[day.date] {
            dayId = known
        } else {
            dayId = dayIds.count + 1
            dayIds[day.date] = dayId
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
            mealId += 1
            mealsPerDay[dayId, default: 0] += 1
            try mealStatement.insert(mealId, dayId, meal.name, mealsPerDay[dayId, default: 0])
            var position = 0
            for restaurant in meal.restaurants {
                let restaurantId = try self.restaurantId(restaurant.name, db)
                for section in restaurant.sections {
                    let sectionId = try self.sectionId(SectionKey(restaurant: restaurant.name, name: section.name),
                                                       restaurantId: restaurantId, db)
                    let firstId = itemId + 1
                    for item in section.foods {
                        itemId += 1
                        position += 1
                        // A side's dish comes before it in its section, so its id is already known.
                        let dish = item.servedWith.flatMap { $0 >= 0 && firstId + $0 < itemId ? firstId + $0 : nil }
                        try itemStatement.insert(itemId, mealId, sectionId, item.food.description, position,
                                                 item.name, item.portion, item.description, item.plannedPortions, dish,
                                                 labelVersions[item.food])
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
