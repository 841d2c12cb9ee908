import Basics
import Foundation
import FoodModel
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
    /// The tables the nutrition review fills (`write(agreements:flags:)`).
    public static let reviewTables: Set<String> = ["food_nutrient_agreement", "food_flag"]

    /// Writes the nutrition review of the check stage, in one transaction, in a stable order
    /// so that two runs on the same inputs publish identical tables. A continued database keeps
    /// the review's rows it copied when tonight's are the same (their digest, recorded in
    /// `_meta` as the food tables' is): most nights change no food, and the review's ten thousand
    /// rows were written again, compared for the change file and their indexes checked.
    public func write(agreements: [NutrientAgreementRow], flags: [FoodFlagRow]) throws {
        let agreements = agreements.sorted { ($0.foodId, $0.nutrientKey) < ($1.foodId, $1.nutrientKey) }
        let flags = flags.sorted { ($0.foodId, $0.check, $0.message) < ($1.foodId, $1.check, $1.message) }
        let digest = Self.reviewDigest(agreements: agreements, flags: flags)
        // Only the copy's rows can be kept: not once a review, or `record`, has replaced them.
        let keep = continuesPrevious && !reviewWritten && digest == previousReviewRows
        let queue = try self.queue
        do {
            try queue.write { db in
                try db.execute(sql: "INSERT OR REPLACE INTO _meta (key, value) VALUES (?, ?)",
                               arguments: [Self.reviewRowsKey, digest])
                guard !keep else { return }
                if continuesPrevious { try Self.empty(Self.reviewTables.sorted(), db) }
                let agreement = try RowInsert(db, sql: """
                    INSERT OR REPLACE INTO food_nutrient_agreement
                    (food_id, nutrient_key, dv_standard, printed_dv_percent, declared_dv_percent,
                     unrounded_low, unrounded_high, agrees_from_declared, agrees_from_unrounded, agrees)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """)
                for row in agreements {
                    try agreement.insert(row.foodId, row.nutrientKey, row.standard, row.printedPercent,
                                         row.declaredPercent, row.unroundedLow, row.unroundedHigh,
                                         row.agreesFromDeclared, row.agreesFromUnrounded,
                                         row.agreesFromDeclared || row.agreesFromUnrounded)
                }
                let flag = try db.cachedStatement(sql: """
                    INSERT INTO food_flag (food_id, check_name, severity, nutrient_key, message)
                    VALUES (?, ?, 'error', ?, ?)
                    """)
                for row in flags {
                    try flag.execute(arguments: [row.foodId, row.check, row.nutrientKey, row.message])
                }
            }
            reviewTablesKept = keep
            reviewWritten = true
        } catch {
            throw Failure(.fileSystem, "cannot write the nutrition review: \(plainMessage(error))", at: url.path, cause: error)
        }
    }
}

extension StagingSnapshot {
    /// Keeps the continued snapshot's nutrition review, its rows and its outcomes, when the
    /// food inputs the review is made from are the continued snapshot's (`foodInputsKept`):
    /// the review is a function of them. Returns the outcomes: the continued snapshot's `_checks`
    /// rows named in `outcomeNames`, in their order (written by this build, as every continued
    /// snapshot is). Nil, with nothing kept, when the review must be made: other inputs, the
    /// copy's rows replaced, no review digest recorded, or checks that cannot be read.
    public func keepReview(outcomeNames: Set<String>) throws -> [CheckOutcome]? {
        guard foodInputsKept, !reviewWritten, let previousReviewRows, let continuedSnapshot,
              let checks = try? continuedSnapshot.checks()
        else { return nil }
        let queue = try self.queue
        do {
            try queue.write { db in
                try db.execute(sql: "INSERT OR REPLACE INTO _meta (key, value) VALUES (?, ?)",
                               arguments: [Self.reviewRowsKey, previousReviewRows])
            }
        } catch {
            throw Failure(.fileSystem, "cannot keep the nutrition review: \(plainMessage(error))", at: url.path, cause: error)
        }
        reviewTablesKept = true
        reviewWritten = true
        return checks.filter { outcomeNames.contains($0.name) }
    }

    /// The digest of every value the review's rows are written from, in their written order:
    /// one value left out would keep a row that should have changed.
    static func reviewDigest(agreements: [NutrientAgreementRow], flags: [FoodFlagRow]) -> String {
        var bytes = FieldWriter()
        bytes.put("review rows 1")
        bytes.put(agreements.count)
        for row in agreements {
            bytes.put(row.foodId)
            bytes.put(row.nutrientKey)
            bytes.put(row.standard)
            bytes.put(row.printedPercent)
            bytes.put(row.declaredPercent)
            bytes.put(row.unroundedLow)
            bytes.put(row.unroundedHigh)
            bytes.put(present: row.agreesFromDeclared)
            bytes.put(present: row.agreesFromUnrounded)
        }
        bytes.put(flags.count)
        for row in flags {
            bytes.put(row.foodId)
            bytes.put(row.check)
            bytes.put(row.nutrientKey)
            bytes.put(row.message)
        }
        return sha256Hex(Data(bytes.bytes))
    }
}

/// One version of a food's label: the food as one day printed it, and the days it was printed.
public struct LabelVersionRow: Sendable {
    public var food: FoodID
    public var version: Int
    public var label: Food
    public var firstDate: ServiceDate
    public var lastDate: ServiceDate
    public var days: Int

    public init(food: FoodID, version: Int, label: Food, firstDate: ServiceDate, lastDate: ServiceDate, days: Int) {
        self.food = food
        self.version = version
        self.label = label
        self.firstDate = firstDate
        self.lastDate = lastDate
        self.days = days
    }
}

extension StagingSnapshot {
    /// Writes the label versions of the foods that printed more than one (`food_label`,
    /// `food_label_nutrient`), in one transaction, in food and version order.
    public func write(labelVersions rows: [LabelVersionRow]) throws {
        guard !rows.isEmpty else { return }
        let queue = try self.queue
        do {
            try queue.write { db in
                let label = try db.cachedStatement(sql: """
                    INSERT INTO food_label (food_id, version, calories, serving_size, first_date, last_date, days,
                                            label_basis, serving_grams)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """)
                let nutrient = try db.cachedStatement(sql: """
                    INSERT OR REPLACE INTO food_label_nutrient
                    (food_id, version, nutrient_key, amount, unit, printed_dv_percent, computed_dv_percent, dv_standard,
                     printed_amount, amount_below, amount_at_least)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """)
                let knownNutrient = try db.cachedStatement(sql: "INSERT OR IGNORE INTO nutrient (key, name, unit) VALUES (?, ?, ?)")
                for row in rows.sorted(by: { ($0.food, $0.version) < ($1.food, $1.version) }) {
                    let id = row.food.description
                    try label.execute(arguments: [id, row.version, row.label.calories, row.label.servingSize,
                                                  row.firstDate.description, row.lastDate.description, row.days,
                                                  row.label.labelBasis?.rawValue, row.label.servingGrams])
                    for value in row.label.nutrients {
                        try knownNutrient.execute(arguments: [value.key.rawValue, value.name, value.unit])
                        try nutrient.execute(arguments: [
                            id, row.version, value.key.rawValue, value.amount, value.unit, value.printedDailyValuePercent,
                            value.computedDailyValuePercent, value.dailyValueStandard, value.printedAmount,
                            value.amountBelow, value.amountAtLeast,
                        ])
                    }
                }
            }
        } catch {
            throw Failure(.fileSystem, "cannot write the label versions: \(plainMessage(error))", at: url.path, cause: error)
        }
    }
}
