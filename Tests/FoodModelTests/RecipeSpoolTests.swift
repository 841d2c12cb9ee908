import Foundation
import Testing
@testable import FoodModel

/// Recipes set aside on disk as they are decoded come back the same, in the same order.
@Suite struct RecipeSpoolTests {
    func scratch() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("commissary-spool-\(UUID().uuidString)")
    }

    func recipe(_ id: String, _ name: String) -> Recipe {
        Recipe(id: RecipeID(source: "mealdb", id: id), name: name, category: "Dessert", area: nil,
               steps: ["Mix.", "Bake."], tags: ["Cake"], modifiedAt: nil)
    }

    @Test func batchesComeBackInTheOrderWritten() throws {
        let file = scratch()
        defer { try? FileManager.default.removeItem(at: file) }
        let writer = try RecipeSpool.Writer(file: file, origin: "dump.json")
        try writer.append([recipe("2", "Two"), recipe("1", "One")])
        try writer.append([])
        try writer.append([recipe("2", "Two again")])
        let spool = try writer.finish()
        #expect(spool.count == 3)
        #expect(spool.origin == "dump.json")

        var read: [[String]] = []
        try spool.forEachBatch { batch in read.append(batch.map(\.name)) }
        #expect(read == [["Two", "One"], ["Two again"]])
    }

    @Test func aCutSpoolIsAnErrorNamingWhatItHeld() throws {
        let file = scratch()
        defer { try? FileManager.default.removeItem(at: file) }
        let writer = try RecipeSpool.Writer(file: file, origin: "dump.json")
        try writer.append([recipe("1", "One")])
        try writer.append([recipe("2", "Two")])
        let spool = try writer.finish()
        let bytes = try Data(contentsOf: file)
        try bytes.prefix(bytes.count - 3).write(to: file)

        var names: [String] = []
        #expect {
            try spool.forEachBatch { names.append(contentsOf: $0.map(\.name)) }
        } throws: { error in
            "\(error)".contains("the scratch file of recipes read from dump.json ends after 1 of 2 recipes")
        }
        #expect(names == ["One"])
    }
}
