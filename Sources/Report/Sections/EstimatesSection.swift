import FoodModel
import GRDB

/// Nutrients estimated from ingredients (`food_estimate`): how many recipes and foods have an
/// estimate and why the others have none, how much of each estimated recipe's weight was matched
/// to a reference food, and the ingredient names nothing matched, which are the overrides an
/// operator should write first. Always worded as estimates: they are never printed labels.
enum EstimatesSection {
    /// The share of a recipe's weighed lines that makes its estimate nearly whole.
    static let nearlyWhole = 0.9
    /// The unmatched names shown before the fold.
    static let shownNames = 10
    /// The unmatched names listed in the fold; the rest are counted.
    static let foldedNames = 200

    static func html(_ context: ReportContext) throws -> String {
        let db = context.db
        guard try db.tableExists("food_estimate"),
              let reference = try String.fetchOne(db, sql: "SELECT min(reference) FROM food_estimate")
        else {
            return HTML.section("estimates", "Nutrition estimates", HTML.none(
                "No nutrition estimates in this snapshot: its pipeline names no nutrition reference, "
                + "or nothing it read lists its ingredients."))
        }
        // Schema 19's estimates had only the wording; the section counts by code.
        guard try db.columns(in: "food_estimate").contains(where: { $0.name == "reason_code" }) else {
            return HTML.section("estimates", "Nutrition estimates", HTML.none(
                "This snapshot's estimates predate their reason codes (schema 20), which this section counts by."))
        }
        return HTML.section("estimates", "Nutrition estimates",
                            try counts(db, reference: reference) + (try matchedShares(db)) + (try againstLabels(db))
                                + (try unmatchedNames(db)))
    }

    /// Estimated and not, per kind of subject, and the reasons of those without, counted.
    private static func counts(_ db: Database, reference: String) throws -> String {
        let kinds = try Row.fetchAll(db, sql: """
            SELECT subject_kind AS kind, count(*) AS subjects, sum(reason IS NULL) AS estimated
            FROM food_estimate GROUP BY 1 ORDER BY 1
            """)
        let reasons = try Row.fetchAll(db, sql: """
            SELECT reason_code AS why, count(*) AS n
            FROM food_estimate WHERE reason_code IS NOT NULL GROUP BY 1 ORDER BY n DESC, why
            """)
        let estimated = try kinds.reduce(0) { try $0 + $1.decode(Int.self, forColumn: "estimated") }
        let total = try kinds.reduce(0) { try $0 + $1.decode(Int.self, forColumn: "subjects") }
        let intro = "<p>Nutrients <strong>estimated</strong> from each recipe's ingredients with the \(HTML.escape(reference)) "
            + "reference, not printed labels: \(estimated) of \(total) recipe(s) and food(s) have an estimate, "
            + "\(total - estimated) have none.</p>"
        let perKind = try HTML.table(["estimated for", "subjects", "with an estimate", "without"], kinds.map { row in
            let subjects: Int = try row.decode(forColumn: "subjects"), estimated: Int = try row.decode(forColumn: "estimated")
            return try [row.decode(forColumn: "kind"), "\(subjects)", "\(estimated)", "\(subjects - estimated)"]
        }, numeric: [1, 2, 3])
        let why = try reasons.isEmpty ? "" : HTML.table(["why there is no estimate", "subjects"], reasons.map { row in
            let code: String = try row.decode(forColumn: "why")
            let subjects: Int = try row.decode(forColumn: "n")
            return [NutritionEstimate.ReasonCode(rawValue: code)?.summary ?? code, "\(subjects)"]
        }, numeric: [1])
        return intro + perKind + why
    }

    /// Estimated subjects per tenth of matched share, as bars, and how many are nearly whole.
    private static func matchedShares(_ db: Database) throws -> String {
        let bands = try Row.fetchAll(db, sql: """
            SELECT min(CAST(matched_share * 10 AS INTEGER), 9) AS band, count(*) AS n
            FROM food_estimate WHERE reason IS NULL GROUP BY 1
            """)
        var counts = [Int](repeating: 0, count: 10)
        for row in bands {
            let band: Int = try row.decode(forColumn: "band")
            if counts.indices.contains(band) { counts[band] += try row.decode(Int.self, forColumn: "n") }
        }
        let estimated = counts.reduce(0, +)
        guard estimated > 0 else { return "" }
        let whole = try Int.fetchOne(db, sql: "SELECT count(*) FROM food_estimate WHERE reason IS NULL AND matched_share >= ?",
                                     arguments: [nearlyWhole]) ?? 0
        let items = counts.enumerated().reversed().map { band, n in
            (label: "\(band * 10)–\(band * 10 + 10) %", value: Double(n))
        }
        return "<p>\(whole) of \(estimated) estimate(s) (\(HTML.percent(whole, of: estimated))) match and weigh at least "
            + "\(Int(nearlyWhole * 100)) % of their recipe's weighed ingredients; the others are estimated from part of it.</p>"
            + BarChart.draw(title: "Estimates by matched share of the recipe's weight",
                            description: "Estimated recipes and foods per tenth of the share of their weighed ingredients "
                                + "matched to a reference food", category: "matched share",
                            items: items, unit: "estimated recipes and foods", whole: true)
    }

    /// Dishes that print a label per 100 g (a kitchen's recipe documents) and have an estimate:
    /// how far the estimated energy lies from the printed one, as the median of
    /// |estimate − label| / label. Nothing for a snapshot without such dishes.
    private static func againstLabels(_ db: Database) throws -> String {
        let pairs = try Row.fetchAll(db, sql: """
            SELECT f.calories AS printed, n.amount_per_100g AS estimated
            FROM food_estimate e JOIN food f ON f.id = e.subject_id
            JOIN food_estimate_nutrient n ON n.subject_id = e.subject_id AND n.nutrient_key = 'calories'
            WHERE e.reason IS NULL AND f.label_basis = '100 g' AND f.calories > 0
            """)
        let differences = try pairs.map { row -> Double in
            let printed: Double = try row.decode(forColumn: "printed")
            let estimated: Double = try row.decode(forColumn: "estimated")
            return abs(estimated - printed) / printed
        }.sorted()
        guard !differences.isEmpty else { return "" }
        let middle = differences.count / 2
        let median = differences.count % 2 == 1 ? differences[middle] : (differences[middle - 1] + differences[middle]) / 2
        return "<p>\(differences.count) dish(es) print their energy per 100 g and have an estimate: the estimate lies "
            + String(format: "%.1f", median * 100) + " % from the printed kcal per 100 g at the median "
            + "(|estimate − label| / label); the printed label stays the dish's label.</p>"
    }

    /// Ingredient names no reference food matched, sub-recipes' included (overrides already
    /// written as unknown left out), by lines, with the grams they weigh where the measure alone gives a weight ("–"
    /// where none does: an unmatched food has no household measure to weigh a cup by).
    private static func unmatchedNames(_ db: Database) throws -> String {
        let names = try Row.fetchAll(db, sql: """
            SELECT name, count(*) AS lines, count(DISTINCT subject_id) AS subjects, sum(grams) AS grams
            FROM food_estimate_line
            WHERE reason_code IN ('unmatched_name', 'subrecipe_unmatched')
            GROUP BY name ORDER BY lines DESC, coalesce(grams, 0) DESC, name
            """)
        guard !names.isEmpty else { return "<p>Every ingredient name was matched to a reference food.</p>" }
        let header = ["ingredient name", "lines", "recipes and foods", "grams (where weighed)"]
        let cells = try names.map { row -> [String] in
            try [row.decode(forColumn: "name"), "\(row.decode(Int.self, forColumn: "lines"))",
                 "\(row.decode(Int.self, forColumn: "subjects"))",
                 row.decode(Double?.self, forColumn: "grams").map { HTML.number($0.rounded()) } ?? "–"]
        }
        let shown = Array(cells.prefix(shownNames)), rest = Array(cells.dropFirst(shownNames))
        let listed = Array(rest.prefix(foldedNames))
        let more = rest.count > listed.count ? "<p>and \(rest.count - listed.count) more name(s).</p>" : ""
        return "<p>\(names.count) ingredient name(s) matched no reference food, so their lines count for nothing in the "
            + "estimates; the most frequent are the first overrides to write:</p>"
            + HTML.table(header, shown, numeric: [1, 2, 3])
            + (rest.isEmpty ? "" : HTML.folded("\(rest.count) more unmatched name(s)",
                                               HTML.table(header, listed, numeric: [1, 2, 3]) + more))
    }
}
