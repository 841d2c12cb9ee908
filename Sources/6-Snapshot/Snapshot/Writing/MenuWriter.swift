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
/// A date that arrives again (a second source serving the same day) joins the day written: a
/// meal of a name the day has gets the new restaurants' items after its own (one meal row per
/// name, restaurants side by side), numbered as if the meal had been written in one go; any
/// other meal follows the day's. A day's own meals of one name join the same way.
///
/// A day whose rows are those of the previous snapshot (the same digest) is not written again:
/// the staging database starts as a copy of that snapshot (`StagingSnapshot`), the day's rows
/// stay, and only days that changed, arrived or left are written or removed. Restaurants and
/// sections are written at the end, once every day has named its own: their ids are assigned
/// here as a full write assigns them, and kept rows that carry another id are renumbered.
final class MenuWriter {
    /// Each day's meals by name, with their place in the day (a meal's id is its day's and this).
    private var mealPositions: [ServiceDate: [String: Int]] = [:]
    /// Each restaurant's id, name and campus by its key (`Restaurant.key`).
    private var restaurantIds: [String: (id: Int, restaurant: Restaurant)] = [:]
    /// Each section's id and its restaurant's.
    private var sections: [SectionKey: (id: Int, restaurant: Int)] = [:]
    /// The digest of each append of a date, in order (`DayRows`).
    private var appendedDays: [ServiceDate: [String]] = [:]
    /// The items digest of each append of a date, in order (`DayRows.itemsDigest`): a kept
    /// append's is the previous snapshot's, nil where it recorded none.
    private var appendedItems: [ServiceDate: [String?]] = [:]
    /// Days of the previous snapshot not yet written again nor kept, with their digest.
    private var previousDays: [ServiceDate: String]
    /// The previous snapshot's items digests, by day.
    private let previousItems: [ServiceDate: String]
    /// Section ids as the previous snapshot assigned them: its kept rows carry these.
    private let previousSectionIds: [SectionKey: Int]
    /// Days whose rows were kept from the previous snapshot.
    private(set) var keptDays: Set<ServiceDate> = []
    /// Dates written by this run.
    private(set) var daysWritten = 0
    /// Some kept rows took another section id (`renumberKeptSections`).
    private var keptRowsRenumbered = false

    /// The days whose rows are, once `complete` ran, those of the previous snapshot row for row:
    /// kept, joined by no second source's meals, none of their items given another section.
    var unchangedDays: Set<ServiceDate> {
        keptRowsRenumbered ? [] : keptDays.filter { appendedDays[$0]?.count == 1 }
    }

    /// Days of the previous snapshot that no append has taken yet: those `complete` removes.
    var daysLeaving: Int { previousDays.count }

    static let mealsPerDayLimit = MenuIdLimits.mealsPerDay
    static let itemsPerMealLimit = MenuIdLimits.itemsPerMeal

    struct SectionKey: Hashable {
        /// The restaurant's key (`Restaurant.key`): its name, after its campus where it has one.
        var restaurant: String
        var name: String
    }

    /// A writer for an empty snapshot.
    init() {
        previousDays = [:]
        previousItems = [:]
        previousSectionIds = [:]
    }

    /// A writer for a staging database that holds the rows of `previous` (read from it before
    /// anything was written).
    init(continuing previous: PreviousMenus) {
        previousDays = previous.days
        previousItems = previous.items
        previousSectionIds = previous.sectionIds
    }

    static func dayId(_ date: ServiceDate) -> Int { date.year * 10_000 + date.month * 100 + date.day }

    /// Keeps the previous snapshot's rows for `day` when they are the rows it would write, and
    /// says so; false when the day is to be written (`write`, next). Only a date's first append
    /// can be kept: a second source serving the same day joins its meals to the first's, written
    /// each time. `labelVersions`: each item's, in page order. Nothing here touches the database,
    /// so a kept day costs no transaction.
    func keep(_ day: DayToWrite, labelVersions: [Int?]) -> Bool {
        let date = day.date
        let digest = day.rowsDigest(labelVersions: labelVersions)
        let isFirst = appendedDays[date] == nil
        appendedDays[date, default: []].append(digest)
        guard isFirst, keeps(date, digest: digest) else { return false }
        previousDays.removeValue(forKey: date)
        // Kept rows are the previous night's from the same build: so are their items.
        appendedItems[date, default: []].append(previousItems[date])
        keepRows(of: day.outline)
        return true
    }

    /// Whether the previous snapshot's rows of `date` are a first append's with `digest`.
    private func keeps(_ date: ServiceDate, digest: String) -> Bool {
        previousDays[date].map { $0 == DayRows.digest(ofAppends: [digest]) } ?? false
    }

    /// Whether `keep` would keep each of `days`, appended next in this order without label
    /// versions. Changes nothing.
    func wouldKeep(_ days: [DayToWrite]) -> [Bool] {
        var appending: Set<ServiceDate> = []
        return days.map { day in
            let isFirst = appendedDays[day.date] == nil && appending.insert(day.date).inserted
            return isFirst && keeps(day.date, digest: day.rowsDigest(labelVersions: []))
        }
    }

    /// Writes a day that `keep` (which counted the append) did not keep: a date's first append
    /// replaces the previous snapshot's rows of that date.
    func write(_ day: ServiceDay, labelVersions: [Int?], to db: Database) throws {
        let dayId = Self.dayId(day.date)
        let isFirst = appendedDays[day.date]?.count == 1
        if isFirst, previousDays.removeValue(forKey: day.date) != nil { try remove(day.date, db) }
        appendedItems[day.date, default: []].append(DayRows.itemsDigest(of: day))
        let meals = try rows(of: day, labelVersions: labelVersions, db)
        if isFirst {
            daysWritten += 1
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
        // Every value written here is in `DayRows.contentDigest`, or is the label version that
        // `DayRows.digest` joins to it: one left out there would be kept unchanged in a day whose
        // rows should have changed.
        for meal in meals {
            if meal.isNew { try mealStatement.insert(meal.id, dayId, meal.name, meal.position) }
            for row in meal.items {
                try itemStatement.insert(row.id, meal.id, row.section, row.food, row.position, row.item.name,
                                         row.item.portion, row.item.description, row.item.plannedPortions, row.dish,
                                         row.labelVersion)
            }
        }
    }

    /// Ends the menus: removes the days of the previous snapshot that this run did not serve,
    /// renumbers the sections of kept rows, writes the restaurants and sections every day named
    /// and the digest of each day's rows (`_day_rows`).
    func complete(_ db: Database) throws {
        for date in previousDays.keys { try remove(date, db) }
        previousDays = [:]
        try renumberKeptSections(db)
        let restaurant = try RowInsert(db, sql: "INSERT INTO restaurant (id, name, campus) VALUES (?, ?, ?)")
        for (id, named) in restaurantIds.values.sorted(by: { $0.id < $1.id }) {
            try restaurant.insert(id, named.name, named.campus)
        }
        let section = try RowInsert(db, sql: "INSERT INTO section (id, restaurant_id, name) VALUES (?, ?, ?)")
        for (key, ids) in sections.sorted(by: { $0.value.id < $1.value.id }) {
            try section.insert(ids.id, ids.restaurant, key.name)
        }
        let digest = try RowInsert(db, sql: "INSERT INTO _day_rows (date, rows_sha256, items_sha256) VALUES (?, ?, ?)")
        for (date, appends) in appendedDays.sorted(by: { $0.key < $1.key }) {
            try digest.insert(date.description, DayRows.digest(ofAppends: appends), itemsDigest(of: date))
        }
    }

    /// A date's items digest: its one append's, or the digest of its appends' in order; nil when
    /// one of them has none.
    private func itemsDigest(of date: ServiceDate) -> String? {
        let appends = appendedItems[date] ?? []
        guard case let known = appends.compactMap({ $0 }), known.count == appends.count, let first = known.first
        else { return nil }
        return known.count == 1 ? first : DayRows.digest(ofAppends: known)
    }

    /// Takes a day whose rows the database holds already: its meals count for the day, its
    /// restaurants and sections are numbered in their turn, as writing them would.
    private func keepRows(of day: ServiceDay) {
        keptDays.insert(day.date)
        for meal in day.meals { _ = mealPosition(of: meal.name, on: day.date) }
        for restaurant in day.meals.flatMap(\.restaurants) {
            let restaurantId = restaurantId(restaurant)
            for section in restaurant.sections {
                sectionId(SectionKey(restaurant: restaurant.key, name: section.name), restaurant: restaurantId)
            }
        }
    }

    /// The rows a day's meals make: ids, sections and label versions as this run assigns them.
    /// A meal whose name the date has already (an earlier append's, or this day's own) takes
    /// its new items after the ones it holds: numbering goes on from the meal's rows.
    private func rows(of day: ServiceDay, labelVersions: [Int?], _ db: Database) throws -> [MealRows] {
        var meals: [MealRows] = []
        var itemIndex = 0
        for meal in day.meals {
            let (mealPosition, isNew) = mealPosition(of: meal.name, on: day.date)
            guard mealPosition <= Self.mealsPerDayLimit else {
                throw Failure(.snapshot, "\(day.date) has more than \(Self.mealsPerDayLimit) meals, more than a meal id can number",
                              at: "\(day.date) \(meal.name)")
            }
            let mealId = Self.dayId(day.date) * 100 + mealPosition
            let index: Int
            if let known = meals.firstIndex(where: { $0.id == mealId }) {
                index = known
            } else {
                let numbering = isNew ? ItemNumbering() : try ItemNumbering(itemsOf: mealId, db)
                meals.append(MealRows(id: mealId, name: meal.name, position: mealPosition, isNew: isNew,
                                      numbering: numbering, items: []))
                index = meals.count - 1
            }
            for restaurant in meal.restaurants {
                let restaurantId = restaurantId(restaurant)
                for section in restaurant.sections {
                    let sectionId = self.sectionId(SectionKey(restaurant: restaurant.key, name: section.name),
                                                   restaurant: restaurantId)
                    var idsInSection: [Int] = []
                    for item in section.foods {
                        defer { itemIndex += 1 }
                        let itemKey = ItemKey(section: sectionId, food: item.food.description)
                        guard let (slot, position) = meals[index].numbering.next(itemKey) else {
                            throw Failure(.snapshot, "\(day.date) \(meal.name) lists more than \(Self.itemsPerMealLimit) items, more than an item id can number",
                                          at: "\(day.date) \(meal.name)")
                        }
                        let itemId = mealId * 100_000 + slot
                        // A side's dish comes before it in its section, so its id is already known.
                        let dish = item.servedWith.flatMap { $0 >= 0 && $0 < idsInSection.count ? idsInSection[$0] : nil }
                        idsInSection.append(itemId)
                        let version = labelVersions.indices.contains(itemIndex) ? labelVersions[itemIndex] : nil
                        meals[index].items.append(ItemRow(id: itemId, section: sectionId, food: item.food.description,
                                                          position: position, item: item, dish: dish,
                                                          labelVersion: version))
                    }
                }
            }
        }
        // Items are written in id order: rows appended in rowid order fill the table's pages
        // one after another instead of splitting them.
        for index in meals.indices { meals[index].items.sort { $0.id < $1.id } }
        return meals
    }

    /// The place of the meal `name` in its day, and whether this is the first time the day
    /// names it (its row is still to be written).
    private func mealPosition(of name: String, on date: ServiceDate) -> (position: Int, isNew: Bool) {
        if let known = mealPositions[date]?[name] { return (known, false) }
        let position = (mealPositions[date]?.count ?? 0) + 1
        mealPositions[date, default: [:]][name] = position
        return (position, true)
    }

    /// Removes a day's rows: its items, meals and the day itself, by the ranges their ids take.
    private func remove(_ date: ServiceDate, _ db: Database) throws {
        let day = Self.dayId(date)...Self.dayId(date)
        let statements = [
            "menu_item": "DELETE FROM menu_item WHERE id BETWEEN ? AND ?",
            "meal": "DELETE FROM meal WHERE id BETWEEN ? AND ?",
            "service_day": "DELETE FROM service_day WHERE id BETWEEN ? AND ?",
        ]
        for table in Self.dayTables.reversed() {
            guard let ids = Self.ids(in: table, days: day), let sql = statements[table] else { continue }
            try db.execute(sql: sql, arguments: [ids.lowerBound, ids.upperBound])
        }
    }

    /// The tables whose rows belong to one day, parents first.
    static let dayTables = ["service_day", "meal", "menu_item"]

    /// The ids the rows of the days `days` (by `dayId`) take in one of `dayTables`: a day's
    /// meals are its id times 100 plus their place, a meal's items its id times 100,000 plus
    /// their slot; nil for any other table.
    static func ids(in table: String, days: ClosedRange<Int>) -> ClosedRange<Int>? {
        switch table {
        case "service_day": days
        case "meal": days.lowerBound * 100...days.upperBound * 100 + mealsPerDayLimit
        case "menu_item": days.lowerBound * 100 * 100_000...(days.upperBound * 100 + mealsPerDayLimit) * 100_000 + itemsPerMealLimit
        default: nil
        }
    }

    /// Kept rows carry the section ids of the snapshot they come from; a section this run
    /// numbers otherwise (two names whose ids collide, met in another order) is renumbered in
    /// the kept days, as a full write would have numbered it.
    private func renumberKeptSections(_ db: Database) throws {
        let moved = previousSectionIds.compactMap { key, old in
            sections[key].flatMap { $0.id == old ? nil : (old: old, new: $0.id) }
        }
        guard !moved.isEmpty, !keptDays.isEmpty else { return }
        keptRowsRenumbered = true
        try db.execute(sql: """
            CREATE TEMP TABLE moved_section (old INTEGER PRIMARY KEY, new INTEGER NOT NULL);
            CREATE TEMP TABLE kept_day (id INTEGER PRIMARY KEY);
            """)
        let section = try RowInsert(db, sql: "INSERT INTO moved_section (old, new) VALUES (?, ?)")
        for pair in moved { try section.insert(pair.old, pair.new) }
        let day = try RowInsert(db, sql: "INSERT INTO kept_day (id) VALUES (?)")
        for date in keptDays { try day.insert(Self.dayId(date)) }
        try db.execute(sql: """
            UPDATE menu_item SET section_id = (SELECT new FROM moved_section WHERE old = section_id)
            WHERE section_id IN (SELECT old FROM moved_section) AND meal_id / 100 IN (SELECT id FROM kept_day);
            DROP TABLE moved_section;
            DROP TABLE kept_day;
            """)
    }

    private struct MealRows {
        var id: Int
        var name: String
        var position: Int
        /// The meal's row is not in the database yet.
        var isNew: Bool
        var numbering: ItemNumbering
        var items: [ItemRow]
    }

    /// How a meal's items are numbered: positions in order, and ids from where an item is
    /// (`slot`), the next free one where two meet. A meal that holds rows already goes on from
    /// them, so that its items get the ids and positions of a meal written in one go.
    private struct ItemNumbering {
        private var position = 0
        private var slotsTaken = Set<Int>()
        private var occurrences: [ItemKey: Int] = [:]

        init() {}

        init(itemsOf mealId: Int, _ db: Database) throws {
            let rows = try Row.fetchCursor(db, sql: """
                SELECT id, section_id, food_id, position FROM menu_item WHERE id BETWEEN ? AND ?
                """, arguments: [mealId * 100_000, mealId * 100_000 + 99_999])
            while let row = try rows.next() {
                try slotsTaken.insert(row.decode(Int.self, atIndex: 0) % 100_000)
                try occurrences[ItemKey(section: row.decode(atIndex: 1), food: row.decode(atIndex: 2)), default: 0] += 1
                position = try max(position, row.decode(atIndex: 3))
            }
        }

        /// The next item's slot and position; nil when the meal has no room left.
        mutating func next(_ key: ItemKey) -> (slot: Int, position: Int)? {
            guard position < MenuWriter.itemsPerMealLimit else { return nil }
            position += 1
            let occurrence = occurrences[key, default: 0]
            occurrences[key] = occurrence + 1
            var slot = MenuWriter.slot(key, occurrence)
            while !slotsTaken.insert(slot).inserted { slot = (slot + 1) % 100_000 }
            return (slot, position)
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

    /// A restaurant's id: derived from its key (its name, after its campus where it has one), as
    /// every snapshot numbers it.
    private func restaurantId(_ restaurant: Restaurant) -> Int {
        let key = restaurant.key
        if let known = restaurantIds[key] { return known.id }
        let id = Self.unused(stableIdentifier(key), in: Set(restaurantIds.values.map(\.id)))
        restaurantIds[key] = (id, Restaurant(name: restaurant.name, campus: restaurant.campus, sections: []))
        return id
    }

    @discardableResult
    private func sectionId(_ key: SectionKey, restaurant: Int) -> Int {
        if let known = sections[key] { return known.id }
        let id = Self.unused(stableIdentifier(key.restaurant + "\u{1F}" + key.name), in: Set(sections.values.map(\.id)))
        sections[key] = (id, restaurant)
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
