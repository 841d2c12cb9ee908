import FoodModel
import Foundation
import GRDB
@testable import Snapshot
import SourceReading
import Testing

/// One vocabulary across sources: each source's raw codes, and what they mean in it.
@Suite struct VocabularyTests {
    private func food(_ source: String, _ id: String, _ name: String, codes: [String]) -> (FoodID, Food) {
        let key = FoodID(source: source, recipeId: id)
        return (key, Food(id: key, name: name, codes: codes))
    }

    /// Two sources printing the same things their own way (UCLA's `VG` and `ATNT`; a feed's
    /// "Vegan" and "Tree Nuts"), one question over both.
    @Test func oneQuestionAcrossTwoSourcesCodes() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let feedLegend = [
            DietaryCode(code: "Vegan", label: "Vegan", kind: .dietary, terms: ["vegan"]),
            DietaryCode(code: "Tree Nuts", label: "Tree Nuts", kind: .allergen, terms: ["tree_nuts"]),
        ]
        let foods = Dictionary(uniqueKeysWithValues: [
            food("ucla-menu", "1", "Almond Granola Bowl", codes: ["VG", "ATNT"]),
            food("ucla-menu", "2", "Lentil Soup", codes: ["VG"]),
            food("ucla-menu", "3", "Cheese Pizza", codes: ["V", "AMLK", "AWHT"]),
            food("feed", "4", "Walnut Salad", codes: ["Vegan", "Tree Nuts"]),
            food("feed", "5", "Tofu Stir Fry", codes: ["Vegan", "Mystery"]),
            food("ucla-menu", "6", "Chili", codes: ["HC"]),
        ])
        let staging = try StagingSnapshot(creatingAt: folder.appendingPathComponent("terms.sqlite"))
        defer { staging.discard() }
        try staging.finish(Dataset(foods: foods), menus: MenuDigest(), codes: UCLAWebCodes.all + feedLegend,
                           foodInputs: nil)

        let answer = try staging.queue.read { db in
            try String.fetchAll(db, sql: """
                SELECT food FROM v_food_term WHERE term = 'vegan'
                EXCEPT SELECT food FROM v_food_term WHERE term = 'tree_nuts'
                ORDER BY 1
                """)
        }
        #expect(answer == ["Lentil Soup", "Tofu Stir Fry"])
        let raw = try staging.queue.read { db in
            try Row.fetchAll(db, sql: "SELECT code, term FROM v_food_term WHERE food = 'Cheese Pizza' ORDER BY term")
                .map { "\($0["code"] as String)=\($0["term"] as String)" }
        }
        // Every raw code kept beside its meaning; "Soy" would be soybeans, "Dairy" milk.
        #expect(raw == ["AMLK=milk", "V=vegetarian", "AWHT=wheat"])
        let counts = try staging.rowCounts()
        // Eleven allergens, five diets (Jain from Bon Appétit's legend), two footprint labels.
        #expect(counts["term"] == Vocabulary.terms.count && counts["term"] == 18)
        // UCLA's fifteen codes, and the feed's two.
        #expect(counts["code_term"] == 17)
        // A code no legend knows means nothing: the food is still there. UCLA's HC means the
        // high carbon footprint the live feed spells out.
        let unmapped = try staging.queue.read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM v_food_term WHERE code = 'Mystery'")
        }
        #expect(unmapped == 0)
        let chili = try staging.queue.read { db in
            try String.fetchAll(db, sql: "SELECT term FROM v_food_term WHERE food = 'Chili'")
        }
        #expect(chili == ["high_carbon"])
        #expect(try staging.queue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM food") } == 6)
    }
}
