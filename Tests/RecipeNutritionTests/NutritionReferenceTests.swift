import Basics
import FoodModel
import Foundation
import GRDB
import RecipeNutrition
import Testing
import TestSupport

/// The reference read back as the script built it from cronometer's SR24 files.
@Suite struct NutritionReferenceTests {
    /// Butter, salted (`usda_sr24/01001.xml`): `tbsp` 14.2 g, `stick` 113 g; Energy 717, Fat
    /// 81.11, Sodium 714, Protein 0.85 per 100 g; nutrients.xml gives kcal, g, mg.
    @Test func aFoodKeepsItsMeasuresAndNutrientsPer100Grams() throws {
        let butter = try #require(try Reference.loaded().matcher.reference.foods["01001"])
        #expect(butter.name == "Butter, salted")
        #expect(butter.measures.first { $0.name == "tbsp" }?.grams == 14.2)
        #expect(butter.measures.first { $0.name == "stick" }?.grams == 113)
        #expect(butter.nutrients[.calories] == 717)
        #expect(butter.nutrients[.totalFat] == 81.11)
        #expect(butter.nutrients[.sodium] == 714)
        #expect(butter.nutrients[.protein] == 0.85)
        #expect(try Reference.loaded().matcher.reference.foods.count == 8858)
    }

    @Test func aMissingReferenceIsOneLineNamingTheFileAndTheScript() throws {
        let missing = URL(fileURLWithPath: "/nonexistent/commissary/usda-sr24.sqlite")
        let error = try #require(throws: Failure.self) { try NutritionReference.load("usda-sr24", from: missing) }
        #expect(error.description == "/nonexistent/commissary/usda-sr24.sqlite: the nutrition reference usda-sr24 is "
                + "missing: run scripts/nutrition-reference, which builds it from Debian's cronometer package (or "
                + "scripts/install, which puts it in PREFIX/share/commissary, where a system service finds it)")
    }

    @Test func aFileThatIsNotTheReferenceIsRefusedWithTheRemedy() throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("usda-sr24.sqlite")
        try Data("not a database".utf8).write(to: file)
        let error = try #require(throws: Failure.self) { try NutritionReference.load("usda-sr24", from: file) }
        #expect(error.message.hasSuffix("run scripts/nutrition-reference, which builds it from Debian's cronometer package --force"))
        #expect(!error.description.contains("\n"))
    }

    /// A reference whose tables hold a value of the wrong type or out of range where it is read
    /// (a NULL amount, a text grams, a negative amount, a NULL name) is refused whole, with the
    /// remedy and the table, instead of stopping the program where it reads it. Each damage is
    /// tried alone on an otherwise sound file.
    @Test(arguments: [
        ("UPDATE reference_food_nutrient SET amount_per_100g = NULL", "reference_food_nutrient (uid 01001)"),
        ("UPDATE reference_food_nutrient SET amount_per_100g = -1", "reference_food_nutrient (uid 01001)"),
        ("UPDATE reference_measure SET grams = 'heavy'", "reference_measure (uid 01001)"),
        ("UPDATE reference_food SET name = NULL", "reference_food (uid 01001)"),
        ("UPDATE reference_nutrient SET unit = x'6b63616c'", "reference_nutrient (name Energy)"),
        // A blob that reads as a number ("717"): a typed read would take it as 717.
        ("UPDATE reference_food_nutrient SET amount_per_100g = x'373137'", "reference_food_nutrient (uid 01001)"),
    ])
    func aDamagedReferenceIsRefusedWithTheRemedy(_ damage: String, _ place: String) throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("usda-sr24.sqlite")
        try Reference.oneFood(at: file, damage: damage)
        let error = try #require(throws: Failure.self) { try NutritionReference.load("usda-sr24", from: file) }
        #expect(error.description == "\(file.path): the nutrition reference has a value of the wrong type or out of range "
                + "in \(place): run scripts/nutrition-reference --force")
    }

    /// The script now keeps `reference_food_nutrient` in the order of its nutrients, where files
    /// built before keep it in the order of the foods: both are read alike, and a nutrient no
    /// estimate carries (vitamin K) is left out. The amounts are made up for the test. The
    /// script, asked for a reference that is there, says which order it keeps and how to build it
    /// again, and builds nothing.
    @Test(arguments: ["uid, nutrient", "nutrient, uid"])
    func theNutrientsAreReadWhateverTheOrderTheFileKeeps(_ key: String) throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("usda-sr24.sqlite")
        try DatabaseQueue(path: file.path).write { db in
            try db.execute(sql: """
                CREATE TABLE reference_nutrient (name TEXT PRIMARY KEY, unit TEXT NOT NULL, usda_number TEXT);
                CREATE TABLE reference_food (uid TEXT PRIMARY KEY, name TEXT NOT NULL, protein_factor REAL,
                    fat_factor REAL, carbohydrate_factor REAL);
                CREATE TABLE reference_food_nutrient (uid TEXT NOT NULL, nutrient TEXT NOT NULL,
                    amount_per_100g REAL NOT NULL, PRIMARY KEY (\(key))) WITHOUT ROWID;
                CREATE TABLE reference_measure (uid TEXT NOT NULL, position INTEGER NOT NULL, name TEXT NOT NULL,
                    amount REAL NOT NULL, grams REAL NOT NULL, PRIMARY KEY (uid, position)) WITHOUT ROWID;
                INSERT INTO reference_nutrient VALUES ('Energy', 'kcal', '208'), ('Protein', 'g', '203'),
                    ('Fat', 'g', '204'), ('Saturated', 'g', '606'), ('Trans-Fats', 'g', '605'),
                    ('Cholesterol', 'mg', '601'), ('Sodium', 'mg', '307'), ('Carbs', 'g', '205'),
                    ('Fiber', 'g', '291'), ('Sugars', 'g', '269'), ('Calcium', 'mg', '301'), ('Iron', 'mg', '303'),
                    ('Potassium', 'mg', '306'), ('Vitamin C', 'mg', '401'), ('Vitamin K', 'µg', '430');
                INSERT INTO reference_food VALUES ('01001', 'Butter, salted', 4.27, 8.79, 3.87),
                    ('01002', 'Butter, whipped, with salt', 4.27, 8.79, 3.87);
                INSERT INTO reference_food_nutrient VALUES ('01002', 'Fat', 81.2), ('01001', 'Energy', 717),
                    ('01002', 'Energy', 718), ('01001', 'Vitamin K', 7), ('01001', 'Fat', 81.11);
                INSERT INTO reference_measure VALUES ('01001', 1, 'tbsp', 1, 14.2), ('01002', 1, 'tbsp', 1, 9.4);
                """)
        }
        let foods = try NutritionReference.load("usda-sr24", from: file).foods
        #expect(foods["01001"]?.nutrients == [.calories: 717, .totalFat: 81.11])
        #expect(foods["01002"]?.nutrients == [.calories: 718, .totalFat: 81.2])
        #expect(foods["01002"]?.measures.map(\.grams) == [9.4])

        let before = try Data(contentsOf: file)
        let script = try ExternalProgram.run(URL(fileURLWithPath: "/usr/bin/env"), [
            "COMMISSARY_NUTRITION_REFERENCE=\(file.path)", Paths.packageRoot.appendingPathComponent("scripts/nutrition-reference").path,
        ])
        #expect(script.status == 0, "\(script.output)")
        #expect(script.output.contains("nutrition reference: \(file.path)"), "\(script.output)")
        let note = "keeps its nutrient rows food by food"
        #expect(script.output.contains(note) == (key == "uid, nutrient"), "\(script.output)")
        #expect(script.output.contains("scripts/nutrition-reference --force") == (key == "uid, nutrient"))
        #expect(try Data(contentsOf: file) == before)
    }

    /// Two phrases a match reads alike ("minced pork" is read as "pork") that name two foods are
    /// refused where the later one is written: the later used to replace the earlier unseen.
    @Test func phrasesReadAlikeThatNameTwoFoodsAreRefused() throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let tables = folder.appendingPathComponent("nutrition")
        try FileManager.default.createDirectory(at: tables, withIntermediateDirectories: true)
        let synonyms = tables.appendingPathComponent("usda-sr24-synonyms.yml")
        try Data("reference: usda-sr24\nsynonyms:\n  pork: \"10020\"\n  ground pork: \"10219\"\n  minced pork: \"10219\"\n"
            .utf8).write(to: synonyms)
        let reference = try Reference.loaded().matcher.reference
        let error = try #require(throws: Failure.self) { try MatchingTables.load(for: reference, beside: folder) }
        #expect(error.message.contains("\"minced pork\" is read as \"pork\", which an earlier phrase gives 10020"),
                "\(error)")
        #expect("\(error)".contains("usda-sr24-synonyms.yml:5:"), "\(error)")
        // The same food under both phrases is no conflict.
        try Data("reference: usda-sr24\nsynonyms:\n  pork: \"10020\"\n  minced pork: \"10020\"\n".utf8).write(to: synonyms)
        #expect(try MatchingTables.load(for: reference, beside: folder).synonyms["pork"] == "10020")
    }

    @Test func theReferenceIsFoundInTheUsersCacheUnlessNamed() {
        #expect(NutritionReference.location(of: "usda-sr24", environment: ["HOME": "/home/ana"]).path
                == "/home/ana/.cache/commissary/usda-sr24.sqlite")
        #expect(NutritionReference.location(of: "usda-sr24", environment: ["HOME": "/home/ana", "XDG_CACHE_HOME": "/c"]).path
                == "/c/commissary/usda-sr24.sqlite")
        #expect(NutritionReference.location(of: "usda-sr24", environment: ["COMMISSARY_NUTRITION_REFERENCE": "/r.sqlite"]).path
                == "/r.sqlite")
    }
}
