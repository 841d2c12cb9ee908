import Foundation
import GRDB

/// One printed %DV checked against its amount (`food_nutrient_agreement`).
public struct NutrientAgreementRow: Hashable, Sendable {
    public var foodId: String
    public var nutrientKey: String
    public var standard: String
    public var printedPercent: Double
    public var declaredPercent: Double
    public var unroundedLow: Double
    public var unroundedHigh: Double
    public var agreesFromDeclared: Bool
    public var agreesFromUnrounded: Bool

    public init(foodId: String, nutrientKey: String, standard: String, printedPercent: Double,
                declaredPercent: Double, unroundedLow: Double, unroundedHigh: Double,
                agreesFromDeclared: Bool, agreesFromUnrounded: Bool) {
        self.foodId = foodId
        self.nutrientKey = nutrientKey
        self.standard = standard
        self.printedPercent = printedPercent
        self.declaredPercent = declaredPercent
        self.unroundedLow = unroundedLow
        self.unroundedHigh = unroundedHigh
        self.agreesFromDeclared = agreesFromDeclared
        self.agreesFromUnrounded = agreesFromUnrounded
    }
}

/// A problem with one food's label (`food_flag`): flags the food, never blocks the run.
public struct FoodFlagRow: Hashable, Sendable {
    public var foodId: String
    public var check: String
    public var nutrientKey: String?
    public var message: String

    public init(foodId: String, check: String, nutrientKey: String?, message: String) {
        self.foodId = foodId
        self.check = check
        self.nutrientKey = nutrientKey
        self.message = message
    }
}

extension StagingSnapshot {
    /// Writes the nutrition review of the compute stage, in one transaction, in a stable order
    /// so that two runs on the same inputs publish identical tables.
    public func write(agreements: [NutrientAgreementRow], flags: [FoodFlagRow]) throws {
        do {
            try queue.write { db in
                let agreement = try db.cachedStatement(sql: """
                    INSERT OR REPLACE INTO food_nutrient_agreement
                    (food_id, nutrient_key, dv_standard, printed_dv_percent, declared_dv_percent,
                     unrounded_low, unrounded_high, agrees_from_declared, agrees_from_unrounded, agrees)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """)
                for row in agreements.sorted(by: { ($0.foodId, $0.nutrientKey) < ($1.foodId, $1.nutrientKey) }) {
                    try agreement.execute(arguments: [
                        row.foodId, row.nutrientKey, row.standard, row.printedPercent, row.declaredPercent,
                        row.unroundedLow, row.unroundedHigh, row.agreesFromDeclared, row.agreesFromUnrounded,
                        row.agreesFromDeclared || row.agreesFromUnrounded,
                    ])
                }
                let flag = try db.cachedStatement(sql: """
                    INSERT INTO food_flag (food_id, check_name, severity, nutrient_key, message)
                    VALUES (?, ?, 'error', ?, ?)
                    """)
                for row in flags.sorted(by: { ($0.foodId, $0.check, $0.message) < ($1.foodId, $1.check, $1.message) }) {
                    try flag.execute(arguments: [row.foodId, row.check, row.nutrientKey, row.message])
                }
            }
        } catch {
            throw SnapshotError("cannot write the nutrition review: \(plainMessage(error))", path: url.path, code: .environment)
        }
    }
}
