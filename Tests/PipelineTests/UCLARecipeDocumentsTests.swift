import FoodModel
import Foundation
import Logging
import Pipeline
import Snapshot
import SourceAdapters
import Testing
import TestSupport

/// Every one of the 1,078 real recipe documents of UCLA's feed saved in `../shared/data`, through
/// a real pipeline: a mirror folder whose one menu lists each recipe once, read by the
/// `ucla-jamix` adapter into a snapshot. Expected values come from this test's own reading of
/// the JSON files (their shape: Sources/1-Sources/SourceAdapters/UCLAJamix/README.md), never from the adapter's.
@Suite struct UCLARecipeDocumentsTests {
    static let recipes = UCLAJamixNights.folder.appendingPathComponent("recipes")
    static let date = ServiceDate("2025-04-07")!

    /// What the test reads of one document by itself.
    struct Expected {
        var id: String
        var name: String
        var portion: Double
        var unit: String
        var batch: Double?
        /// Nil when the document has no label or one of zeros.
        var energyPer100g: Double?
        var hasLabelBlock: Bool
        var diets: [String]
        var ingredientRows: Int
    }

    static func expectations() throws -> [Expected] {
        try FileManager.default.contentsOfDirectory(atPath: recipes.path).filter { $0.hasSuffix(".json") }.sorted()
            .map { file in
                let json = try #require(try JSONSerialization.jsonObject(
                    with: Data(contentsOf: recipes.appendingPathComponent(file))) as? [String: Any])
                let values = json["recipeNutritiveValues"] as? [String: Any]
                let energy = (values?["energyKcal"] as? [String: Any])?["value"]
                // A block whose every value is 0 is a label nobody filled in (13 specials and drinks).
                let filled = values?.values.contains { (($0 as? [String: Any])?["value"] as? NSNumber)?.doubleValue ?? 0 != 0 }
                let rows = (json["recipeIngredientRows"] as? [[String: Any]] ?? []).filter {
                    !(($0["ingredientName"] as? String) ?? "").trimmingCharacters(in: .whitespaces).isEmpty
                }
                let diets = (json["recipeDiet"] as? String ?? "").split(separator: ",").map(String.init)
                return Expected(
                    id: String(file.dropLast(".json".count)),
                    name: try #require((json["recipeNameTranslations"] as? [String: Any])?["EN"] as? String)
                        .trimmingCharacters(in: .whitespaces),
                    portion: try #require((json["recipePortionSize"] as? NSNumber)?.doubleValue),
                    unit: try #require(json["recipePortionSizeUnit"] as? String),
                    batch: (json["recipePortions"] as? NSNumber)?.doubleValue,
                    energyPer100g: filled == true ? (energy as? NSNumber)?.doubleValue : nil, hasLabelBlock: values != nil,
                    diets: diets, ingredientRows: rows.count)
            }
    }

    /// A menu file of the feed's shape with one row per recipe id, at one station of one hall.
    static func menu(listing ids: [String]) throws -> Data {
        let rows: [[String: Any]] = ids.enumerated().map { index, id in
            ["menuRowId": index + 1, "menuRowName": "ROW \(id)", "recipeId": Int(id)!, "publish": true,
             "rowOrderNumber": index + 1, "menuRowPortionSize": 1, "menuRowPortionSizeUnit": "each"]
        }
        let menu: [String: Any] = [
            "menuId": 1, "menuName": "Bruin Plate Lunch Service", "menuTypeName": "Lunch", "menuPublish": true,
            "storeId": 1, "storeName": "Bruin Plate",
            "menuWeeks": [["menuDays": [["dayDate": date.description, "menuDayMealOptions": [
                ["mealOptionName": "EVERY RECIPE", "menuRows": rows],
            ]]]]],
        ]
        return try JSONSerialization.data(withJSONObject: [menu])
    }

    /// Grams of a portion (docs/nutrition.md): 1 oz = 28.349523125 g, 1 lb = 453.59237 g.
    static func grams(_ amount: Double, _ unit: String) -> Double? {
        switch unit {
        case "oz": amount * 28.349523125
        case "lb": amount * 453.59237
        case "g": amount
        default: nil
        }
    }

    @Test func everyRealRecipeDocumentThroughAPipeline() async throws {
        let expected = try Self.expectations()
        #expect(expected.count == 1_078)
        let workspace = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: workspace) }
        let mirror = workspace.appendingPathComponent("jamix")
        try FileManager.default.createDirectory(at: mirror.appendingPathComponent("menus"), withIntermediateDirectories: true)
        // Copied, not linked: a folder source reads no link that leaves its folder.
        try FileManager.default.copyItem(at: Self.recipes, to: mirror.appendingPathComponent("recipes"))
        try Self.menu(listing: expected.map(\.id))
            .write(to: mirror.appendingPathComponent("menus/\(Self.date).json"))
        try FileManager.default.createSymbolicLink(at: workspace.appendingPathComponent("standards"),
                                                   withDestinationURL: Paths.pipelines.appendingPathComponent("standards"))
        let file = workspace.appendingPathComponent("recipes.yml")
        try Data("""
            pipeline: ucla-recipes
            dv_standard: fda-2016
            sources:
              - name: ucla
                adapter: ucla-jamix
                location: \(mirror.path)
                dates: {from: \(Self.date), to: \(Self.date)}
            checks:
              min_menu_items: 1
              min_labelled_share: {warn: 0.99}
            """.utf8).write(to: file)
        let report = try await PipelineRunner(
            spec: try SpecReader.read(file), options: RunOptions(workspace: Workspace(root: workspace), today: Self.date),
            observer: SilentObserver(), logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })).run()
        #expect(report.published, "\(report.blockingChecks.map(\.message))")
        let snapshot = URL(fileURLWithPath: try #require(report.snapshotPath))

        func rows(_ sql: String) throws -> [[SQLValue]] { try QueryResult.run(sql, on: snapshot).rows }
        let foods = try rows("""
            SELECT f.recipe_id, f.name, f.serving_size, f.serving_grams, f.batch_portions, f.label_basis,
                   (SELECT amount_per_serving FROM v_menu_nutrition n
                    WHERE n.food_id = f.id AND n.nutrient_key = 'calories'),
                   (SELECT calories FROM v_menu_macros m WHERE m.food_id = f.id),
                   (SELECT group_concat(term, ' ') FROM (SELECT term FROM v_food_term t WHERE t.food_id = f.id
                    AND t.kind IN ('diet', 'sustainability') ORDER BY term)),
                   (SELECT count(*) FROM food_component c WHERE c.food_id = f.id)
            FROM food f ORDER BY f.recipe_id
            """)
        #expect(foods.count == 1_078)
        let byId = Dictionary(uniqueKeysWithValues: foods.compactMap { row -> (String, [SQLValue])? in
            guard case .text(let id) = row[0] else { return nil }
            return (String(id.dropFirst("recipe-".count)), row)
        })
        // The meaning of each short diet code, as the documents' recipeDietFull spells it out.
        let terms = ["VG": "vegan", "VE": "vegetarian", "HAL": "halal", "LC": "low_carbon", "HC": "high_carbon"]
        var withoutLabel: [String] = []
        var unfilled = 0
        for recipe in expected {
            let row = try #require(byId[recipe.id], "recipe \(recipe.id)")
            #expect(row[1] == .text(recipe.name))
            let printed = recipe.portion == recipe.portion.rounded() ? String(Int(recipe.portion)) : String(recipe.portion)
            #expect(row[2] == .text("\(printed) \(recipe.unit)"), "recipe \(recipe.id)")
            let grams = try #require(Self.grams(recipe.portion, recipe.unit))
            guard case .real(let servingGrams) = row[3] else { Issue.record("recipe \(recipe.id): no grams"); continue }
            #expect(abs(servingGrams - grams) < 1e-9)
            #expect(row[4] == (recipe.batch.map { SQLValue.real($0) } ?? .null), "recipe \(recipe.id)")
            let wanted = recipe.diets.compactMap { terms[$0] }.sorted().joined(separator: " ")
            #expect(row[8] == (wanted.isEmpty ? .null : .text(wanted)), "recipe \(recipe.id)")
            #expect(row[9] == .integer(Int64(recipe.ingredientRows)), "recipe \(recipe.id)")
            guard let energy = recipe.energyPer100g else {
                if recipe.hasLabelBlock { unfilled += 1 } else { withoutLabel.append(recipe.id) }
                #expect(row[5] == .null && row[6] == .null && row[7] == .null)
                continue
            }
            #expect(row[5] == .text("100 g"))
            guard case .real(let perServing) = row[6], case .real(let macros) = row[7] else {
                Issue.record("recipe \(recipe.id): no energy per serving")
                continue
            }
            #expect(abs(perServing - energy * grams / 100) < 1e-6, "recipe \(recipe.id)")
            #expect(abs(macros - energy * grams / 100) < 1e-6, "recipe \(recipe.id)")
        }
        #expect(withoutLabel == ["4893", "5180"])
        #expect(unfilled == 11)

        // Tuna & Lentil Hummus Stacker: a 2.92 oz portion of a batch of 742 (not "742 oz"), read by hand.
        let stacker = try rows("""
            SELECT name, serving_size, batch_portions FROM food WHERE name LIKE 'Tuna & Lentil Hummus Stacker%'
            """)
        #expect(stacker == [[.text("Tuna & Lentil Hummus Stacker"), .text("2.92 oz"), .real(742)]])

        // Sun Dried Tomato Cream Sauce (6185.json): its rows in the recipe's order, the sub-recipe
        // pointing at its own document; 261.31 kcal per 100 g, 13.07% printed for it.
        #expect(try rows("""
            SELECT position, name, amount, unit, component_food_id, is_heading FROM food_component
            WHERE food_id = 'ucla-jamix:recipe-6185' ORDER BY position
            """) == [
                [.integer(1), .text("Canola Oil"), .real(0.481), .text("lb"), .text("ucla-jamix:ingredient-5980"), .integer(0)],
                [.integer(2), .text("Shallots"), .real(1.5), .text("lb"), .text("ucla-jamix:ingredient-7224"), .integer(0)],
                [.integer(3), .text("Sundried Tomato"), .real(2), .text("lb"), .text("ucla-jamix:ingredient-6345"), .integer(0)],
                [.integer(4), .text("Bechamel Sauce"), .real(14.63), .text("lb"), .text("ucla-jamix:recipe-115"), .integer(0)],
                [.integer(5), .text("Kosher Salt"), .real(0.38), .text("lb"), .text("ucla-jamix:ingredient-6957"), .integer(0)],
                [.integer(6), .text("Black Pepper"), .real(0.19), .text("lb"), .text("ucla-jamix:ingredient-4548"), .integer(0)],
            ])
        #expect(try rows("""
            SELECT amount, printed_dv_percent, basis FROM v_food_nutrition
            WHERE food_id = 'ucla-jamix:recipe-6185' AND nutrient_key = 'calories'
            """) == [[.real(261.31), .real(13.07), .text("100 g")]])

        // The documents without a label (2 null, 11 of zeros) are counted: below the pipeline's
        // 99%, the share check warns and names the day.
        let share = try #require(report.manifest.checks.first { $0.name == "labelled_share" })
        #expect(share.message == "ucla: 1065 of 1078 menu item(s) carry a label (98.8%), 13 without; "
                + "below checks.min_labelled_share (99.0%) on 2025-04-07 98.8%")
        #expect(share.severity == .warning && !share.passed)
        #expect(report.manifest.partitions.first?.counts?["food_documents_without_label"] == 13)
        // Their printed %DV (per 100 g, two decimals) agree with their amounts under the FDA's 2016 values.
        #expect(!report.manifest.checks.contains { $0.name == "dv_agreement" && !$0.passed })
        // Every food is vegan by its terms exactly when the macros view says so.
        #expect(try rows("""
            SELECT count(*) FROM v_food_macros m
            WHERE m.is_vegan != EXISTS (SELECT 1 FROM v_food_term t WHERE t.food_id = m.food_id AND t.term = 'vegan')
            """) == [[.integer(0)]])
        #expect(try rows("SELECT count(*) FROM v_food_macros WHERE is_vegan") == [[.integer(414)]])
    }
}
