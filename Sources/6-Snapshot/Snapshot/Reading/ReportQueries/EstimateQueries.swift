import GRDB

/// Subjects of one kind (recipe, food) and how many of them have an estimate.
public struct EstimateKindCount: Hashable, Sendable {
    public var kind: String
    public var subjects: Int
    public var estimated: Int
}

/// Subjects without an estimate for one reason (`food_estimate.reason_code`, as written).
public struct EstimateReasonCount: Hashable, Sendable {
    public var code: String
    public var subjects: Int
}

/// Estimated subjects whose matched share of the recipe's weight lies in one tenth (0 to 9,
/// a whole match in 9).
public struct MatchedShareBand: Hashable, Sendable {
    public var band: Int
    public var estimates: Int
}

/// A dish's energy per 100 g as its label prints it and as it was estimated.
public struct EstimatedEnergy: Hashable, Sendable {
    public var printed: Double
    public var estimated: Double
}

/// An ingredient name no reference food matched: its lines, the recipes and foods they are in,
/// and the grams they weigh (nil where no line's measure alone gives a weight).
public struct UnmatchedIngredient: Hashable, Sendable {
    public var name: String
    public var lines: Int
    public var subjects: Int
    public var grams: Double?
}

extension ReportQueries {
    /// The reference the estimates were made with; nil for a snapshot without estimates.
    public func estimateReference() throws -> String? {
        guard try db.tableExists("food_estimate") else { return nil }
        return try String.fetchOne(db, sql: "SELECT min(reference) FROM food_estimate")
    }

    /// Whether the estimates carry reason codes (schema 20; schema 19's had only the wording).
    public func estimatesHaveReasonCodes() throws -> Bool {
        try db.columns(in: "food_estimate").contains(where: { $0.name == "reason_code" })
    }

    /// Estimated and not, per kind of subject, by kind.
    public func estimateKinds() throws -> [EstimateKindCount] {
        try Row.fetchAll(db, sql: """
            SELECT subject_kind AS kind, count(*) AS subjects, sum(reason IS NULL) AS estimated
            FROM food_estimate GROUP BY 1 ORDER BY 1
            """).map {
                try EstimateKindCount(kind: $0.decode(forColumn: "kind"), subjects: $0.decode(forColumn: "subjects"),
                                      estimated: $0.decode(forColumn: "estimated"))
            }
    }

    /// The reasons of the subjects without an estimate, the most common first.
    public func estimateReasons() throws -> [EstimateReasonCount] {
        try Row.fetchAll(db, sql: """
            SELECT reason_code AS why, count(*) AS n
            FROM food_estimate WHERE reason_code IS NOT NULL GROUP BY 1 ORDER BY n DESC, why
            """).map { try EstimateReasonCount(code: $0.decode(forColumn: "why"), subjects: $0.decode(forColumn: "n")) }
    }

    /// Estimated subjects per tenth of matched share, the empty tenths left out.
    public func matchedShareBands() throws -> [MatchedShareBand] {
        try Row.fetchAll(db, sql: """
            SELECT min(CAST(matched_share * 10 AS INTEGER), 9) AS band, count(*) AS n
            FROM food_estimate WHERE reason IS NULL GROUP BY 1
            """).map { try MatchedShareBand(band: $0.decode(forColumn: "band"), estimates: $0.decode(forColumn: "n")) }
    }

    /// Estimated subjects whose matched share is at least `share`.
    public func estimateCount(matchingAtLeast share: Double) throws -> Int {
        try Int.fetchOne(db, sql: "SELECT count(*) FROM food_estimate WHERE reason IS NULL AND matched_share >= ?",
                         arguments: [share]) ?? 0
    }

    /// Dishes that print a label per 100 g with energy in it and have an estimate.
    public func estimatedEnergyOfLabelledDishes() throws -> [EstimatedEnergy] {
        try Row.fetchAll(db, sql: """
            SELECT f.calories AS printed, n.amount_per_100g AS estimated
            FROM food_estimate e JOIN food f ON f.id = e.subject_id
            JOIN food_estimate_nutrient n ON n.subject_id = e.subject_id AND n.nutrient_key = 'calories'
            WHERE e.reason IS NULL AND f.label_basis = '100 g' AND f.calories > 0
            """).map {
                try EstimatedEnergy(printed: $0.decode(forColumn: "printed"), estimated: $0.decode(forColumn: "estimated"))
            }
    }

    /// Ingredient names no reference food matched, sub-recipes' included (overrides already
    /// written as unknown left out), the most lines first, then the most grams.
    public func unmatchedIngredients() throws -> [UnmatchedIngredient] {
        try Row.fetchAll(db, sql: """
            SELECT name, count(*) AS lines, count(DISTINCT subject_id) AS subjects, sum(grams) AS grams
            FROM food_estimate_line
            WHERE reason_code IN ('unmatched_name', 'subrecipe_unmatched')
            GROUP BY name ORDER BY lines DESC, coalesce(grams, 0) DESC, name
            """).map {
                try UnmatchedIngredient(name: $0.decode(forColumn: "name"), lines: $0.decode(forColumn: "lines"),
                                        subjects: $0.decode(forColumn: "subjects"), grams: $0.decode(forColumn: "grams"))
            }
    }
}
