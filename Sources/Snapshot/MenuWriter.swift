import Basics
import FoodModel
import GRDB

/// Writes service days into the snapshot one at a time, as partitions finish, so that the
/// menus of a decade go to disk instead of waiting in memory for the last day.
///
/// Ids say where a row is, so the same row keeps its id from one night to the next and a change
/// set between two snapshots stays as small as what changed (docs/changes.md): a day is
/// `yyyymmdd`, a meal its day times 100 plus its place in the day, a menu item its meal times
/// 100,000 plus a number from its section, food and occurrence (`slot`), so it keeps its id when
/// items around it come and go; a restaurant or a section a number derived from its name
/// (`stableIdentifier`), so a hall's id does not depend on which day it first appears on.
/// A date that arrives again (a second source serving the same day) adds its meals after those
/// already written.
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
            // Items are numbered first and written in id order: rows appended in rowid order
            // fill the table's pages one after another instead of splitting them.
            var rows: [ItemRow] = []
            var position = 0
            var slotsTaken = Set<Int>()
            var occurrences: [ItemKey: Int] = [:]
            for restaurant in meal.restaurants {
                let restaurantId = try self.restaurantId(restaurant.name, db)
                for section in restaurant.sections {
                    let sectionId = try self.sectionId(SectionKey(restaurant: restaurant.name, name: section.name),
                                                       restaurantId: restaurantId, db)
                    var idsInSection: [Int] = []
                    for item in section.foods {
                        position += 1
                        guard position <= Self.itemsPerMealLimit else {
                            throw SnapshotError("\(day.date) \(meal.name) lists more than \(Self.itemsPerMealLimit) items, more than an item id can number",
                                                path: "\(day.date) \(meal.name)")
                        }
                        let key = ItemKey(section: sectionId, food: item.food.description)
                        let occurrence = occurrences[key, default: 0]
                        occurrences[key] = occurrence + 1
                        var slot = Self.slot(key, occurrence)
                        while !slotsTaken.insert(slot).inserted { slot = (slot + 1) % 100_000 }
                        let itemId = mealId * 100_000 + slot
                        // A side's dish comes before it in its section, so its id is already known.
                        let dish = item.servedWith.flatMap { $0 >= 0 && $0 < idsInSection.count ? idsInSection[$0] : nil }
                        idsInSection.append(itemId)
                        rows.append(ItemRow(id: itemId, section: sectionId, food: item.food.description, position: position,
                                            item: item, dish: dish, labelVersion: labelVersions[item.food]))
                    }
                }
            }
            rows.sort { $0.id < $1.id }
            for row in rows {
                try itemStatement.insert(row.id, mealId, row.section, row.food, row.position, row.item.name, row.item.portion,
                                         row.item.description, row.item.plannedPortions, row.dish, row.labelVersion)
            }
        }
    }

    private struct ItemRow {
        var id: Int
        var section: Int
        var food: String
        var position: Int
        var item: MenuItem
        var dish: Int?
        var labelVersion: Int?
    }

    private struct ItemKey: Hashable {
        var section: Int
        var food: String
    }

    /// Where in its meal's range of ids an item goes: FNV-1a of its section, its food and how
    /// many times that food came before in the section's meal, so that items keep their ids
    /// when others are added, removed or moved around them.
    private static func slot(_ key: ItemKey, _ occurrence: Int) -> Int {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func mix(_ byte: UInt8) {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        withUnsafeBytes(of: key.section.littleEndian) { $0.forEach(mix) }
        key.food.utf8.forEach(mix)
        withUnsafeBytes(of: occurrence.littleEndian) { $0.forEach(mix) }
        return Int(hash % 100_000)
    }

    private func restaurantId(_ name: String, _ db: Database) throws -> Int {
        if let known = restaurantIds[name] { return known }
        let id = Self.unused(stableIdentifier(name), in: Set(restaurantIds.values))
        restaurantIds[name] = id
        try db.cachedStatement(sql: "INSERT INTO restaurant (id, name) VALUES (?, ?)").execute(arguments: [id, name])
        return id
    }

    private func sectionId(_ key: SectionKey, restaurantId: Int, _ db: Database) throws -> Int {
        if let known = sectionIds[key] { return known }
        let id = Self.unused(stableIdentifier(key.restaurant + "\u{1F}" + key.name), in: Set(sectionIds.values))
        sectionIds[key] = id
        try db.cachedStatement(sql: "INSERT INTO section (id, restaurant_id, name) VALUES (?, ?, ?)")
            .execute(arguments: [id, restaurantId, key.name])
        return id
    }

    /// Two names whose ids collide (one chance in 2^47 per pair) keep them apart by the next
    /// free number.
    private static func unused(_ id: Int, in taken: Set<Int>) -> Int {
        var id = id
        while taken.contains(id) { id += 1 }
        return id
    }
}
