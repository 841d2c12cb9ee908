import Basics
import FoodModel
import Foundation
import GRDB
import Snapshot

/// One self-contained HTML page about a snapshot (inline CSS and SVG, no script, opens offline):
/// coverage, checks, changes since the previous snapshot, diets, nutrition, swipes and recipes,
/// each a chart with its numbers under it, or one line saying the snapshot has no such data.
public enum ReportPage {
    /// The page for `snapshot`; `previous` is the snapshot its changes are counted from.
    public static func html(for snapshot: URL, previous: URL?) throws -> String {
        let sections = try SnapshotReader.read(snapshot) { db in
            [
                try coverage(db), try checks(db), try changes(snapshot, previous: previous), try diets(db),
                try nutrition(db), try swipes(db), try recipes(db),
            ]
        }
        let name = snapshot.deletingPathExtension().lastPathComponent
        return """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(SVGChart.escape(name)): Commissary report</title>
            <style>
            body { font: 15px/1.45 system-ui, sans-serif; margin: 1rem auto; max-width: 70rem; padding: 0 1rem; color: #222; }
            svg { width: 100%; height: auto; max-width: 60rem; display: block; }
            table { border-collapse: collapse; margin: .5rem 0 1.5rem; font-size: 13px; }
            th, td { border-bottom: 1px solid #ddd; padding: .15rem .6rem; text-align: left; vertical-align: top; }
            td.n { text-align: right; font-variant-numeric: tabular-nums; }
            section { border-top: 2px solid #1f6f8b; margin-top: 1.5rem; }
            .none { color: #666; font-style: italic; }
            figure { margin: 1rem 0 .25rem; } figcaption { font-weight: 600; margin-bottom: .25rem; }
            </style></head><body>
            <h1>\(SVGChart.escape(name))</h1>
            <p>Built from the snapshot alone\(previous.map { " and, for its changes, from " + SVGChart.escape($0.lastPathComponent) } ?? "").</p>
            \(sections.joined(separator: "\n"))
            </body></html>

            """
    }

    /// Writes the page to `file` (replacing it), read-only like the snapshot beside it.
    public static func write(for snapshot: URL, previous: URL?, to file: URL) throws {
        let page = try html(for: snapshot, previous: previous)
        do {
            try? FileManager.default.removeItem(at: file)
            try Data(page.utf8).write(to: file, options: .atomic)
            try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: file.path)
        } catch {
            throw Failure.fileSystem("cannot write the report page: \(SystemMessage.describe(error))", path: file.path)
        }
    }

    // MARK: - Sections

    static func section(_ id: String, _ title: String, _ content: String) -> String {
        "<section id=\"\(id)\"><h2>\(SVGChart.escape(title))</h2>\n\(content)\n</section>"
    }

    static func none(_ line: String) -> String { "<p class=\"none\">\(SVGChart.escape(line))</p>" }

    static func table(_ header: [String], _ rows: [[String]], numeric: Set<Int> = []) -> String {
        let head = header.map { "<th>\(SVGChart.escape($0))</th>" }.joined()
        let body = rows.map { row in
            "<tr>" + row.enumerated().map { index, cell in
                numeric.contains(index) ? "<td class=\"n\">\(SVGChart.escape(cell))</td>" : "<td>\(SVGChart.escape(cell))</td>"
            }.joined() + "</tr>"
        }.joined(separator: "\n")
        return "<table><thead><tr>\(head)</tr></thead><tbody>\n\(body)\n</tbody></table>"
    }

    /// Items per restaurant and calendar day from the first served day to the last: a day no
    /// restaurant served is a visible gap; a stale day is outlined.
    static func coverage(_ db: Database) throws -> String {
        let rows = try Row.fetchAll(db, sql: """
            SELECT \(try restaurantName(db)) AS restaurant, d.date, count(*) AS items
            FROM menu_item mi JOIN meal m ON m.id = mi.meal_id JOIN service_day d ON d.id = m.service_day_id
            JOIN section s ON s.id = mi.section_id JOIN restaurant r ON r.id = s.restaurant_id
            GROUP BY 1, d.date
            """)
        guard !rows.isEmpty else { return section("coverage", "1. Coverage", none("No menus in this snapshot.")) }
        var values: [String: [String: Double]] = [:]
        for row in rows { values[row["restaurant"], default: [:]][row["date"]] = Double(row["items"] as Int) }
        let dates = values.values.flatMap(\.keys).compactMap(ServiceDate.init).sorted()
        // A snapshot given on the command line may hold dates that are no dates.
        guard let first = dates.first, let last = dates.last else {
            return section("coverage", "1. Coverage", none("No menu has a service day that reads as a date."))
        }
        let days = (0...(last.daysSinceEpoch - first.daysSinceEpoch)).map { first.adding(days: $0).description }
        let stale = try db.tableExists("_stale") ? Set(try String.fetchAll(db, sql: "SELECT partition FROM _stale")) : []
        let restaurants = values.keys.sorted()
        let chart = SVGChart.heatmap(
            title: "Items served per restaurant and day",
            description: "\(restaurants.count) restaurants over \(days.count) calendar days from \(days[0]) to \(days.last!); "
                + "pale cells are days a restaurant served nothing; outlined days are stale.",
            rows: restaurants, columns: days, values: values, marked: stale,
            columnLabel: { $0.hasSuffix("-01") || $0 == days[0] ? String($0.prefix(7)) : nil })
        let numbers = restaurants.map { name -> [String] in
            let served = values[name] ?? [:]
            return [name, "\(served.count)", SVGChart.format(served.values.reduce(0, +)),
                    served.keys.min() ?? "", served.keys.max() ?? ""]
        }
        let missing = days.filter { day in !restaurants.contains { values[$0]?[day] != nil } }
        let gaps = missing.isEmpty ? "" : "<p>Days with no menu at all: \(SVGChart.escape(missing.joined(separator: ", "))).</p>"
        let staleLine = stale.isEmpty ? "" : "<p>Stale days (published from their last good version): "
            + "\(SVGChart.escape(stale.sorted().joined(separator: ", "))).</p>"
        return section("coverage", "1. Coverage", chart + gaps + staleLine
            + table(["restaurant", "days served", "items", "first day", "last day"], numbers, numeric: [1, 2]))
    }

    static func checks(_ db: Database) throws -> String {
        let rows = try Row.fetchAll(db, sql: "SELECT name, severity, passed, message FROM _checks ORDER BY rowid")
        guard !rows.isEmpty else { return section("checks", "2. Checks", none("The run recorded no checks.")) }
        var counts: [String: Int] = [:]
        for row in rows {
            let passed: Bool = row["passed"]
            let severity: String = row["severity"]
            counts[passed ? "passed" : severity, default: 0] += 1
        }
        let order = ["passed", "warning", "error", "stale", "info"]
        let chart = SVGChart.bars(title: "Checks by outcome", description: order.compactMap { key in
            counts[key].map { "\($0) \(key)" } }.joined(separator: ", "),
            items: order.compactMap { key in counts[key].map { (key, Double($0)) } }, axis: "checks")
        let blocking = rows.filter { !($0["passed"] as Bool) && ($0["severity"] as String) == "error" }
        let reasons = blocking.isEmpty ? "<p>No check blocked publishing.</p>"
            : "<p>Blocking: " + blocking.map { SVGChart.escape($0["message"]) }.joined(separator: "; ") + "</p>"
        let list = rows.map { row -> [String] in
            [row["name"], row["severity"], (row["passed"] as Bool) ? "passed" : "failed", row["message"]]
        }
        return section("checks", "2. Checks", chart + reasons + table(["check", "severity", "outcome", "message"], list))
    }

    /// Menu items added and removed per day, counted as `diff` counts them (the same item twice is
    /// two), and the foods whose label values changed; compared in SQL with the previous snapshot
    /// attached, so a history of hundreds of thousands of items is never held in memory.
    static func changes(_ snapshot: URL, previous: URL?) throws -> String {
        let title = "3. Changes since the previous snapshot"
        guard let previous else { return section("changes", title, none("No previous snapshot to compare with.")) }
        // Each side's rows tagged with the side, then counted per item in one grouping (a sort),
        // not joined: a join of the two on six text columns had no index and took minutes.
        let items = { (schema: String, isNew: Int) in """
            SELECT d.date, m.name AS meal, r.name AS restaurant, s.name AS section, mi.food_id, mi.name AS item,
                   \(isNew) AS in_new
            FROM \(schema).menu_item mi JOIN \(schema).meal m ON m.id = mi.meal_id
            JOIN \(schema).service_day d ON d.id = m.service_day_id JOIN \(schema).section s ON s.id = mi.section_id
            JOIN \(schema).restaurant r ON r.id = s.restaurant_id
            """ }
        let (perDay, labels, foodsAdded, foodsRemoved) = try SnapshotReader.read(snapshot, attaching: previous) { db in
            let perDay = try Row.fetchAll(db, sql: """
                WITH counted AS (
                    SELECT date, sum(in_new) AS new_n, sum(1 - in_new) AS old_n
                    FROM (\(items("main", 1)) UNION ALL \(items("prev", 0)))
                    GROUP BY date, meal, restaurant, section, food_id, item)
                SELECT date, sum(max(new_n - old_n, 0)) AS added, sum(max(old_n - new_n, 0)) AS removed
                FROM counted GROUP BY date HAVING added > 0 OR removed > 0 ORDER BY date
                """).map { (date: $0["date"] as String, added: $0["added"] as Int, removed: $0["removed"] as Int) }
            let labels = try Row.fetchAll(db, sql: """
                SELECT f.id, f.name, count(*) AS changed FROM main.food_nutrient n
                JOIN prev.food_nutrient o ON o.food_id = n.food_id AND o.nutrient_key = n.nutrient_key
                JOIN main.food f ON f.id = n.food_id
                WHERE n.amount IS NOT o.amount OR n.unit IS NOT o.unit OR n.printed_dv_percent IS NOT o.printed_dv_percent
                GROUP BY f.id ORDER BY f.id
                """).map { [$0["id"], $0["name"], "\($0["changed"] as Int) value(s)"] as [String] }
            let added = try Int.fetchOne(db, sql: "SELECT count(*) FROM main.food WHERE id NOT IN (SELECT id FROM prev.food)") ?? 0
            let removed = try Int.fetchOne(db, sql: "SELECT count(*) FROM prev.food WHERE id NOT IN (SELECT id FROM main.food)") ?? 0
            return (perDay, labels, added, removed)
        }
        guard !perDay.isEmpty || !labels.isEmpty || foodsAdded > 0 || foodsRemoved > 0 else {
            return section("changes", title, none("Nothing changed since \(previous.lastPathComponent)."))
        }
        let added = perDay.reduce(0) { $0 + $1.added }, removed = perDay.reduce(0) { $0 + $1.removed }
        let chart = perDay.isEmpty ? none("No menu item was added or removed.") : SVGChart.bars(
            title: "Menu items added and removed per day",
            description: "\(added) items added and \(removed) removed over \(perDay.count) days",
            items: perDay.flatMap { [("\($0.date) +", Double($0.added)), ("\($0.date) −", Double($0.removed))] },
            axis: "items")
        return section("changes", title, chart
            + table(["day", "added", "removed"], perDay.map { [$0.date, "\($0.added)", "\($0.removed)"] }, numeric: [1, 2])
            + "<p>\(foodsAdded) food(s) added, \(foodsRemoved) removed; \(labels.count) food(s) whose label values changed"
            + (labels.isEmpty ? ".</p>" : ":</p>" + table(["food", "name", "what changed"], labels)))
    }

    /// How a restaurant (`r`) is named on the page: with its campus ("Commons (St. Olaf)") when the
    /// snapshot holds several campuses, so that the page reads campus by campus and two
    /// campuses' restaurants of one name stay two; its name alone otherwise.
    static func restaurantName(_ db: Database) throws -> String {
        guard try db.columns(in: "restaurant").contains(where: { $0.name == "campus" }),
              try Int.fetchOne(db, sql: "SELECT count(DISTINCT campus) FROM restaurant") ?? 0 > 1
        else { return "r.name" }
        return "r.name || coalesce(' (' || r.campus || ')', '')"
    }

    /// The share of each restaurant's items that are vegan or vegetarian (in the one vocabulary),
    /// over the days it served.
    static func diets(_ db: Database) throws -> String {
        guard try db.tableExists("code_term") else { return section("diets", "4. Diets", none("This snapshot predates the vocabulary.")) }
        // Each food's meaning once, then the items counted against it: not a lookup per item.
        let rows = try Row.fetchAll(db, sql: """
            WITH meaning AS (
                SELECT fc.food_id, max(ct.term = 'vegan') AS vegan, max(ct.term IN ('vegan', 'vegetarian')) AS vegetarian
                FROM food_code fc JOIN code_term ct ON ct.code = fc.code GROUP BY fc.food_id)
            SELECT \(try restaurantName(db)) AS restaurant, count(*) AS items, count(DISTINCT m.service_day_id) AS days,
                   coalesce(sum(t.vegan), 0) AS vegan, coalesce(sum(t.vegetarian), 0) AS vegetarian
            FROM menu_item mi JOIN meal m ON m.id = mi.meal_id
            JOIN section s ON s.id = mi.section_id JOIN restaurant r ON r.id = s.restaurant_id
            LEFT JOIN meaning t ON t.food_id = mi.food_id
            GROUP BY 1 ORDER BY 1
            """)
        guard !rows.isEmpty else { return section("diets", "4. Diets", none("No menus in this snapshot.")) }
        func share(_ row: Row, _ column: String) -> Double { 100 * Double(row[column] as Int) / Double(row["items"] as Int) }
        let vegan = SVGChart.bars(title: "Vegan items, share per restaurant", description: "Percent of each restaurant's items "
            + "whose food means vegan", items: rows.map { ($0["restaurant"], share($0, "vegan")) }, axis: "% of items")
        let vegetarian = SVGChart.bars(title: "Vegetarian or vegan items, share per restaurant", description: "Percent of "
            + "each restaurant's items whose food means vegetarian or vegan",
            items: rows.map { ($0["restaurant"], share($0, "vegetarian")) }, axis: "% of items")
        let numbers = rows.map { row -> [String] in
            [row["restaurant"], "\(row["days"] as Int)", "\(row["items"] as Int)", "\(row["vegan"] as Int)",
             SVGChart.format(share(row, "vegan")), "\(row["vegetarian"] as Int)", SVGChart.format(share(row, "vegetarian"))]
        }
        return section("diets", "4. Diets", vegan + vegetarian + table(
            ["restaurant", "days", "items", "vegan", "vegan %", "vegetarian or vegan", "%"], numbers,
            numeric: [1, 2, 3, 4, 5, 6]))
    }

    /// Calories and sodium per meal, as served (each item's label of its day), and the flagged labels.
    static func nutrition(_ db: Database) throws -> String {
        // Items counted per meal, food and label version first, then each label's calories and
        // sodium once, per serving: the figures of `v_menu_macros`, without its other columns for
        // every item. A snapshot from before schema 16 states no basis: its labels are per serving.
        let knowsBasis = try db.columns(in: "food").contains { $0.name == "label_basis" }
        let perServing = { (label: String) in
            knowsBasis ? SnapshotSchema.perServing("\(label).label_basis", "\(label).serving_grams") : "1.0"
        }
        let sodium = { (table: String, food: String, version: String) in """
            (SELECT CASE n.unit WHEN 'mg' THEN n.amount WHEN 'g' THEN n.amount * 1000 WHEN 'mcg' THEN n.amount / 1000.0 END
             FROM \(table) n WHERE n.food_id = \(food)\(version) AND n.nutrient_key = 'sodium')
            """ }
        let rows = try Row.fetchAll(db, sql: """
            WITH served AS (SELECT m.name AS meal, mi.food_id, coalesce(mi.label_version, 1) AS version, count(*) AS items
                            FROM menu_item mi JOIN meal m ON m.id = mi.meal_id GROUP BY 1, 2, 3),
                 labels AS (SELECT l.id AS food_id, 1 AS version, l.calories * \(perServing("l")) AS calories,
                                   \(sodium("food_nutrient", "l.id", "")) * \(perServing("l")) AS sodium_mg
                            FROM food l WHERE l.id NOT IN (SELECT food_id FROM food_label)
                            UNION ALL
                            SELECT l.food_id, l.version, l.calories * \(perServing("l")),
                                   \(sodium("food_label_nutrient", "l.food_id", " AND n.version = l.version"))
                                       * \(perServing("l")) AS sodium_mg
                            FROM food_label l)
            SELECT served.meal, served.items, labels.calories, labels.sodium_mg
            FROM served JOIN labels ON labels.food_id = served.food_id AND labels.version = served.version
            """)
        // Each label's value with the number of items served with it, per meal.
        var calories: [String: [(value: Double, count: Int)]] = [:], sodiumPerMeal: [String: [(value: Double, count: Int)]] = [:]
        for row in rows {
            let meal: String = row["meal"]
            let items: Int = row["items"]
            if let value: Double = row["calories"] { calories[meal, default: []].append((value, items)) }
            if let value: Double = row["sodium_mg"] { sodiumPerMeal[meal, default: []].append((value, items)) }
        }
        guard !calories.isEmpty || !sodiumPerMeal.isEmpty else {
            return section("nutrition", "5. Nutrition", none("No menu item has a label in this snapshot."))
        }
        func chart(_ values: [String: [(value: Double, count: Int)]], _ what: String, _ unit: String) -> String {
            let items = values.keys.sorted().compactMap { meal in SVGChart.Spread(counted: values[meal]!).map { (meal, $0) } }
            return SVGChart.ranges(title: "\(what) per item, by meal", description: "Minimum, quartiles, median and maximum "
                + "of \(what.lowercased()) per served item, per meal", items: items, axis: unit)
                + table(["meal", "items", "min", "25%", "median", "75%", "max"], items.map { meal, spread in
                    [meal, "\(spread.count)", SVGChart.format(spread.minimum), SVGChart.format(spread.lowerQuartile),
                     SVGChart.format(spread.median), SVGChart.format(spread.upperQuartile), SVGChart.format(spread.maximum)]
                }, numeric: [1, 2, 3, 4, 5, 6])
        }
        let flagged = try Int.fetchOne(db, sql: "SELECT count(DISTINCT food_id) FROM food_flag") ?? 0
        let flags = try Row.fetchAll(db, sql: """
            SELECT fl.food_id, f.name, fl.check_name, fl.message FROM food_flag fl JOIN food f ON f.id = fl.food_id
            ORDER BY fl.check_name, fl.food_id LIMIT 25
            """).map { [$0["food_id"], $0["name"], $0["check_name"], $0["message"]] as [String] }
        return section("nutrition", "5. Nutrition", chart(calories, "Calories", "kcal") + chart(sodiumPerMeal, "Sodium", "mg")
            + "<p>\(flagged) food(s) have flagged labels\(flagged > flags.count ? "; the first \(flags.count) flags" : ""):</p>"
            + (flags.isEmpty ? "" : table(["food", "name", "check", "message"], flags)))
    }

    /// Each plan's expected balance after every period of the term, closures shaded.
    static func swipes(_ db: Database) throws -> String {
        let rows = try Row.fetchAll(db, sql: """
            SELECT term, plan, date, position, period_source, balance FROM v_swipe_table ORDER BY term, plan, date, position
            """)
        guard !rows.isEmpty else { return section("swipes", "6. Swipes", none("No meal plans in this snapshot.")) }
        var content = ""
        for (term, termRows) in Dictionary(grouping: rows, by: { $0["term"] as String }).sorted(by: { $0.key < $1.key }) {
            var series: [(String, [Double])] = []
            var closed: Set<Int> = []
            var numbers: [[String]] = []
            for (plan, planRows) in Dictionary(grouping: termRows, by: { $0["plan"] as String }).sorted(by: { $0.key < $1.key }) {
                let balances = planRows.map { $0["balance"] as Double }
                series.append((plan, balances))
                for (index, row) in planRows.enumerated() where (row["period_source"] as String) == "closed" { closed.insert(index) }
                numbers.append([plan, SVGChart.format(balances.first ?? 0), SVGChart.format(balances.last ?? 0), "\(balances.count)"])
            }
            content += SVGChart.lines(title: "Expected balance, \(term)", description: "\(series.count) plans over "
                + "\(series.first?.1.count ?? 0) periods; \(closed.count) closed periods shaded", series: series,
                shaded: closed, xAxis: "meal periods of the term →", yAxis: "swipes")
                + table(["plan", "after the first period", "after the last", "periods"], numbers, numeric: [1, 2, 3])
        }
        return section("swipes", "6. Swipes", content)
    }

    static func recipes(_ db: Database) throws -> String {
        let total = try Int.fetchOne(db, sql: "SELECT count(*) FROM recipe") ?? 0
        guard total > 0 else { return section("recipes", "7. Recipes", none("No recipe catalogue in this snapshot.")) }
        func counts(_ column: String) throws -> [(String, Double)] {
            try Row.fetchAll(db, sql: """
                SELECT coalesce(\(column), '(none)') AS name, count(*) AS n FROM recipe GROUP BY 1 ORDER BY n DESC, name LIMIT 20
                """).map { ($0["name"], Double($0["n"] as Int)) }
        }
        let categories = try counts("category"), areas = try counts("area")
        let unparsed = try Int.fetchOne(db, sql: "SELECT count(*) FROM recipe_ingredient WHERE measure_kind = 'unparsed'") ?? 0
        let lines = try Int.fetchOne(db, sql: "SELECT count(*) FROM recipe_ingredient") ?? 0
        let examples = try String.fetchAll(db, sql: """
            SELECT DISTINCT measure_raw FROM recipe_ingredient WHERE measure_kind = 'unparsed' ORDER BY measure_raw LIMIT 20
            """)
        return section("recipes", "7. Recipes",
            SVGChart.bars(title: "Recipes per category", description: "\(total) recipes; the 20 largest categories",
                          items: categories, axis: "recipes")
            + table(["category", "recipes"], categories.map { [$0.0, SVGChart.format($0.1)] }, numeric: [1])
            + SVGChart.bars(title: "Recipes per area", description: "The 20 largest areas", items: areas, axis: "recipes")
            + table(["area", "recipes"], areas.map { [$0.0, SVGChart.format($0.1)] }, numeric: [1])
            + "<p>\(unparsed) of \(lines) measures could not be classified"
            + (examples.isEmpty ? ".</p>" : ": \(SVGChart.escape(examples.joined(separator: "; "))).</p>"))
    }
}
