import FoodModel
import Snapshot

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
        let queries = context.queries
        guard let reference = try queries.estimateReference() else {
            return HTML.section("estimates", "Nutrition estimates", HTML.none(
                "No nutrition estimates in this snapshot: its pipeline names no nutrition reference, "
                + "or nothing it read lists its ingredients."))
        }
        // Schema 19's estimates had only the wording; the section counts by code.
        guard try queries.estimatesHaveReasonCodes() else {
            return HTML.section("estimates", "Nutrition estimates", HTML.none(
                "This snapshot's estimates predate their reason codes (schema 20), which this section counts by."))
        }
        return HTML.section("estimates", "Nutrition estimates",
                            try counts(queries, reference: reference) + (try matchedShares(queries))
                                + (try againstLabels(queries)) + (try unmatchedNames(queries)))
    }

    /// Estimated and not, per kind of subject, and the reasons of those without, counted.
    private static func counts(_ queries: ReportQueries, reference: String) throws -> String {
        let kinds = try queries.estimateKinds()
        let reasons = try queries.estimateReasons()
        let estimated = kinds.reduce(0) { $0 + $1.estimated }
        let total = kinds.reduce(0) { $0 + $1.subjects }
        let intro = "<p>Nutrients <strong>estimated</strong> from each recipe's ingredients with the \(HTML.escape(reference)) "
            + "reference, not printed labels: \(estimated) of \(total) recipe(s) and food(s) have an estimate, "
            + "\(total - estimated) have none.</p>"
        let perKind = HTML.table(["estimated for", "subjects", "with an estimate", "without"], kinds.map {
            [$0.kind, "\($0.subjects)", "\($0.estimated)", "\($0.subjects - $0.estimated)"]
        }, numeric: [1, 2, 3])
        let why = reasons.isEmpty ? "" : HTML.table(["why there is no estimate", "subjects"], reasons.map {
            [NutritionEstimate.ReasonCode(rawValue: $0.code)?.summary ?? $0.code, "\($0.subjects)"]
        }, numeric: [1])
        return intro + perKind + why
    }

    /// Estimated subjects per tenth of matched share, as bars, and how many are nearly whole.
    private static func matchedShares(_ queries: ReportQueries) throws -> String {
        var counts = [Int](repeating: 0, count: 10)
        for band in try queries.matchedShareBands() where counts.indices.contains(band.band) {
            counts[band.band] += band.estimates
        }
        let estimated = counts.reduce(0, +)
        guard estimated > 0 else { return "" }
        let whole = try queries.estimateCount(matchingAtLeast: nearlyWhole)
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
    private static func againstLabels(_ queries: ReportQueries) throws -> String {
        let differences = try queries.estimatedEnergyOfLabelledDishes().map { abs($0.estimated - $0.printed) / $0.printed }
            .sorted()
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
    private static func unmatchedNames(_ queries: ReportQueries) throws -> String {
        let names = try queries.unmatchedIngredients()
        guard !names.isEmpty else { return "<p>Every ingredient name was matched to a reference food.</p>" }
        let header = ["ingredient name", "lines", "recipes and foods", "grams (where weighed)"]
        let cells = names.map { [$0.name, "\($0.lines)", "\($0.subjects)", $0.grams.map { HTML.number($0.rounded()) } ?? "–"] }
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
