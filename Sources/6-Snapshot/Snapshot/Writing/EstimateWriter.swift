import Basics
import FoodModel
import GRDB

extension StagingSnapshot {
    /// Writes nutrition estimates, each with its lines and nutrients per 100 g (`food_estimate`,
    /// `food_estimate_line`, `food_estimate_nutrient`); `kind` says whether each estimates a
    /// `recipe` or a `food`. An estimate of a dish written before is replaced whole, so that
    /// estimates can be written batch by batch as a dump's recipes are, a later one winning.
    public func write(estimates: [(kind: String, estimate: NutritionEstimate)]) throws {
        guard !estimates.isEmpty else { return }
        let queue = try self.queue
        do {
            try queue.write { db in
                let clearLines = try db.cachedStatement(sql: "DELETE FROM food_estimate_line WHERE subject_id = ?")
                let clearNutrients = try db.cachedStatement(sql: "DELETE FROM food_estimate_nutrient WHERE subject_id = ?")
                let dish = try db.cachedStatement(sql: """
                    INSERT OR REPLACE INTO food_estimate (subject_id, subject_kind, reference, lines, lines_counted, converted_grams,
                        matched_grams, matched_share, cooking_loss_percent, serving_grams, reason, reason_code)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """)
                let nutrient = try db.cachedStatement(sql: """
                    INSERT INTO food_estimate_nutrient (subject_id, nutrient_key, amount_per_100g, unit) VALUES (?, ?, ?, ?)
                    """)
                let line = try db.cachedStatement(sql: """
                    INSERT INTO food_estimate_line (subject_id, position, name, measure, grams, grams_from, reference_id,
                        reference_name, match_score, matched_by, reason, reason_code)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """)
                for (kind, estimate) in estimates {
                    let id = estimate.subjectId
                    try clearLines.execute(arguments: [id])
                    try clearNutrients.execute(arguments: [id])
                    try dish.execute(arguments: [
                        id, kind, estimate.reference, estimate.lines.count, estimate.lines.count(where: \.counts),
                        estimate.convertedGrams, estimate.matchedGrams, estimate.matchedShare,
                        estimate.cookingLossPercent, estimate.servingGrams, estimate.reason, estimate.reasonCode?.rawValue,
                    ])
                    for value in estimate.nutrients {
                        try nutrient.execute(arguments: [id, value.key.rawValue, value.amountPer100g, value.unit])
                    }
                    for entry in estimate.lines {
                        try line.execute(arguments: [
                            id, entry.position, entry.name, entry.measure, entry.grams, entry.gramsFrom, entry.matchId,
                            entry.matchName, entry.matchScore, entry.matchedBy, entry.reason, entry.code.rawValue,
                        ])
                    }
                }
            }
        } catch {
            throw Failure(.fileSystem, "cannot write the nutrition estimates: \(plainMessage(error))", at: url.path,
                          cause: error)
        }
    }
}
