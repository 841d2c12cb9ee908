import Basics
import FoodModel
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import RecipeNutrition
import Testing
import TestSupport

/// A pipeline's estimator: the reference's build, its foods' ids and the matching tables are read
/// with the pipeline; the foods themselves when the first estimate is asked for, from that build.
@Suite struct DeferredEstimatorTests {
    /// The one-food reference (`Reference.oneFood`), spoiled by `damage` when given, and a synonym
    /// table beside it that names `synonym`.
    private func reference(in folder: URL, damage: String? = nil, synonym: String = "01001") throws -> URL {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("usda-sr24.sqlite")
        try Reference.oneFood(at: file, damage: damage)
        let tables = folder.appendingPathComponent("nutrition")
        try FileManager.default.createDirectory(at: tables, withIntermediateDirectories: true)
        try Data("reference: usda-sr24\nsynonyms:\n  salted butter: \"\(synonym)\"\n".utf8)
            .write(to: tables.appendingPathComponent("usda-sr24-synonyms.yml"))
        return file
    }

    @Test func aSoundReferenceEstimatesThroughItsTables() throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = try reference(in: folder)
        let deferred = try DeferredEstimator(reference: "usda-sr24", file: file, tablesBeside: folder)
        #expect(deferred.referenceName == "usda-sr24")
        #expect(deferred.referenceVersion.hasPrefix(file.path + "|"))
        #expect(deferred.tables.synonyms == ["salted butter": "01001"])
        let match = try deferred.estimator().matcher.match("Salted Butter").get()
        #expect(match.food.id == "01001")
        #expect(match.food.nutrients[.calories] == 717)
        #expect(match.food.measures.map(\.grams) == [14.2])
    }

    /// The nutrients are not read with the pipeline: a damaged nutrient row lets the pipeline be
    /// read, and is refused, as `NutritionReference.load` refuses it, when an estimate is asked for.
    @Test func theFoodsAreReadOnlyWhenAnEstimateIsAskedFor() throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = try reference(in: folder, damage: "UPDATE reference_food_nutrient SET amount_per_100g = NULL")
        let deferred = try DeferredEstimator(reference: "usda-sr24", file: file, tablesBeside: folder)
        let error = try #require(throws: Failure.self) { try deferred.estimator() }
        #expect(error.description == "\(file.path): the nutrition reference has a value of the wrong type or out of range "
                + "in reference_food_nutrient (uid 01001): run scripts/nutrition-reference --force")
    }

    /// The tables are still checked against the reference's foods when the pipeline is read, and
    /// a damaged id is refused then too.
    @Test func aTableOrAnIdTheReferenceCannotBackIsRefusedWithThePipeline() throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = try reference(in: folder, synonym: "04610")
        let unknown = try #require(throws: Failure.self) {
            try DeferredEstimator(reference: "usda-sr24", file: file, tablesBeside: folder)
        }
        #expect(unknown.message.contains("04610 is not a food of usda-sr24"), "\(unknown.message)")

        try FileManager.default.removeItem(at: file)
        let damaged = try reference(in: folder, damage: "UPDATE reference_food SET uid = NULL")
        let error = try #require(throws: Failure.self) {
            try DeferredEstimator(reference: "usda-sr24", file: damaged, tablesBeside: folder)
        }
        #expect(error.description == "\(damaged.path): the nutrition reference has a value of the wrong type or out of range "
                + "in reference_food: run scripts/nutrition-reference --force")
    }

    /// A reference built again between reading the pipeline and its first estimate is not used:
    /// the pipeline's fingerprint names the build it was read with. The new build is renamed into
    /// place as the script does, the same size as the first and modified within the same second:
    /// only the fraction of that second tells them apart.
    @Test func aReferenceBuiltAgainSinceThePipelineWasReadIsRefused() throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = try reference(in: folder)
        let second = Date().timeIntervalSince1970.rounded(.down)
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: second + 0.25)],
                                              ofItemAtPath: file.path)
        let deferred = try DeferredEstimator(reference: "usda-sr24", file: file, tablesBeside: folder)
        let again = try reference(in: folder.appendingPathComponent("again"))
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: second + 0.75)],
                                              ofItemAtPath: again.path)
        #expect(try Data(contentsOf: again).count == Data(contentsOf: file).count)
        #expect(rename(again.path, file.path) == 0)
        let error = try #require(throws: Failure.self) { try deferred.estimator() }
        #expect(error.description == "\(file.path): the nutrition reference usda-sr24 was built again while this run "
                + "used it; run again, which reads the new one")
    }
}
