import Basics
import FoodModel
import Foundation
@testable import Snapshot
import Testing

/// The nutrition review's rows (`food_nutrient_agreement`, `food_flag`) are kept from the
/// continued snapshot when tonight's are the same, and written again when they are not; a night
/// that writes no review publishes none.
@Suite struct ReviewRowsTests {
    /// The burger's total fat of the small dataset: 21.3 g printed as 33% of 65 g.
    private static let fat = NutrientAgreementRow(
        foodId: "ucla-menu:400317", nutrientKey: "total_fat", standard: "fda-2016", printedPercent: 33,
        declaredPercent: 32.8, unroundedLow: 32.7, unroundedHigh: 32.8, agreesFromDeclared: true,
        agreesFromUnrounded: true)
    private static let flag = FoodFlagRow(foodId: "ucla-menu:400317", check: "dv_ceiling", nutrientKey: "vitamin_a",
                                          message: "11% printed without an amount")
    private static let review = (agreements: [fat], flags: [flag])

    private func rows(_ table: String, _ staging: StagingSnapshot) throws -> [[SQLValue]] {
        try QueryResult.run("SELECT * FROM \(table) ORDER BY 1, 2, 3, 4, 5", on: staging.url).rows
    }

    @Test func theSameReviewIsKeptAndNamedKept() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = try stage(smallDataset(), in: folder, runId: "first", review: Self.review)
        let second = try stage(smallDataset(), in: folder, runId: "second", continuing: first.url, review: Self.review)
        #expect(!first.reviewTablesKept)
        #expect(second.reviewTablesKept)
        #expect(second.unchangedDays?.tables.isSuperset(of: StagingSnapshot.reviewTables) == true)
        for table in StagingSnapshot.reviewTables {
            #expect(try rows(table, second) == rows(table, first), "\(table)")
        }
        #expect(try rows("food_nutrient_agreement", second).count == 1)
        #expect(try rows("food_flag", second).map { $0[1] } == [.text("dv_ceiling")])
        let digest = "SELECT value FROM _meta WHERE key = 'review_rows_sha256'"
        #expect(try QueryResult.run(digest, on: second.url).rows == QueryResult.run(digest, on: first.url).rows)
    }

    /// A night whose food inputs are the continued snapshot's keeps its review without one: the
    /// rows, the digest, and the outcomes of the names asked for, as recorded (values and order
    /// set by hand here). Other inputs, or none, keep nothing, and the review is written.
    @Test func aReviewOfTheSameFoodInputsIsKeptWithItsOutcomes() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let outcomes = [
            CheckOutcome(name: "min_menu_items", severity: .error, passed: true, value: 4, message: "4 items"),
            CheckOutcome(name: "energy_sanity", severity: .warning, passed: false, value: 2,
                         message: "2 food(s) flagged; first: ucla-menu:400317 51 kcal printed"),
            CheckOutcome(name: "dv_agreement", severity: .warning, passed: true, value: 0.9734208285327857,
                         message: "total_fat: 1 of 1 printed %DV agree"),
        ]
        let first = try stage(smallDataset(), in: folder, runId: "first", review: Self.review, foodInputs: "inputs 1",
                              checks: outcomes)
        let review: Set = ["energy_sanity", "dv_agreement"]

        let same = try StagingSnapshot(creatingAt: folder.appendingPathComponent("staging/same.sqlite"),
                                       continuing: LatestSnapshot(reading: first.url))
        try same.finish(smallDataset(), menus: MenuDigest(), codes: knownCodes, foodInputs: "inputs 1")
        #expect(same.foodInputsKept && same.foodTablesKept)
        #expect(try same.keepReview(outcomeNames: review) == Array(outcomes[1...]))
        #expect(same.reviewTablesKept)
        for table in StagingSnapshot.reviewTables {
            #expect(try rows(table, same) == rows(table, first), "\(table)")
        }
        let digest = "SELECT value FROM _meta WHERE key = 'review_rows_sha256'"
        #expect(try QueryResult.run(digest, on: same.url).rows == QueryResult.run(digest, on: first.url).rows)
        // Kept once: a second call finds the review taken.
        #expect(try same.keepReview(outcomeNames: review) == nil)

        for inputs in ["inputs 2", nil] {
            let other = try StagingSnapshot(creatingAt: folder.appendingPathComponent("staging/other.sqlite"),
                                            continuing: LatestSnapshot(reading: first.url))
            try other.finish(smallDataset(), menus: MenuDigest(), codes: knownCodes, foodInputs: inputs)
            #expect(!other.foodInputsKept)
            #expect(try other.keepReview(outcomeNames: review) == nil)
            #expect(!other.reviewTablesKept)
        }
    }

    /// One value of one row differs: both tables are written again, as a night without a
    /// previous snapshot writes them.
    @Test func aChangedReviewIsWrittenAgain() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = try stage(smallDataset(), in: folder, runId: "first", review: Self.review)
        var changed = Self.fat
        changed.agreesFromUnrounded = false
        let second = try stage(smallDataset(), in: folder, runId: "second", continuing: first.url,
                               review: ([changed], []))
        #expect(!second.reviewTablesKept)
        #expect(second.unchangedDays?.tables.isDisjoint(with: StagingSnapshot.reviewTables) == true)
        let agreement = try QueryResult.run(
            "SELECT food_id, nutrient_key, agrees_from_declared, agrees_from_unrounded, agrees FROM food_nutrient_agreement",
            on: second.url).rows
        #expect(agreement == [[.text("ucla-menu:400317"), .text("total_fat"), .integer(1), .integer(0), .integer(1)]])
        #expect(try rows("food_flag", second).isEmpty)
    }

    /// A continued night that writes no review (none of its stages reviewed a label) publishes
    /// empty review tables rather than the night before's.
    @Test func aContinuedNightWithoutAReviewKeepsNoneOfTheLast() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = try stage(smallDataset(), in: folder, runId: "first", review: Self.review)
        let second = try stage(smallDataset(), in: folder, runId: "second", continuing: first.url)
        #expect(!second.reviewTablesKept)
        for table in StagingSnapshot.reviewTables { #expect(try rows(table, second).isEmpty, "\(table)") }
    }

    /// A review written after the run was recorded (which emptied the copy's rows) is written,
    /// not kept, though its rows are the copy's.
    @Test func aReviewAfterTheCopysRowsWereEmptiedIsWritten() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = try stage(smallDataset(), in: folder, runId: "first", review: Self.review)
        let second = try stage(smallDataset(), in: folder, runId: "second", continuing: first.url)
        try second.write(agreements: Self.review.agreements, flags: Self.review.flags)
        #expect(!second.reviewTablesKept)
        for table in StagingSnapshot.reviewTables {
            #expect(try rows(table, second) == rows(table, first), "\(table)")
        }
    }

    /// Every value a review row is written from changes the digest; the same rows give the same.
    @Test func everyWrittenValueChangesTheReviewDigest() {
        let base = StagingSnapshot.reviewDigest(agreements: [Self.fat], flags: [Self.flag])
        #expect(StagingSnapshot.reviewDigest(agreements: [Self.fat], flags: [Self.flag]) == base)
        let agreementChanges: [(String, (inout NutrientAgreementRow) -> Void)] = [
            ("food", { $0.foodId = "ucla-menu:061005" }), ("nutrient", { $0.nutrientKey = "sodium" }),
            ("standard", { $0.standard = "ucla-label" }), ("printed", { $0.printedPercent = 34 }),
            ("declared", { $0.declaredPercent = 33 }), ("low", { $0.unroundedLow = 32 }),
            ("high", { $0.unroundedHigh = 33 }), ("from declared", { $0.agreesFromDeclared = false }),
            ("from unrounded", { $0.agreesFromUnrounded = false }),
        ]
        for (what, change) in agreementChanges {
            var row = Self.fat
            change(&row)
            #expect(StagingSnapshot.reviewDigest(agreements: [row], flags: [Self.flag]) != base, "\(what)")
        }
        let flagChanges: [(String, (inout FoodFlagRow) -> Void)] = [
            ("food", { $0.foodId = "ucla-menu:061005" }), ("check", { $0.check = "energy_sanity" }),
            ("nutrient", { $0.nutrientKey = nil }), ("message", { $0.message = "another" }),
        ]
        for (what, change) in flagChanges {
            var row = Self.flag
            change(&row)
            #expect(StagingSnapshot.reviewDigest(agreements: [Self.fat], flags: [row]) != base, "\(what)")
        }
        // A flag is not an agreement: moving rows between the tables changes the digest.
        #expect(StagingSnapshot.reviewDigest(agreements: [], flags: [Self.flag]) != base)
    }
}
