import FoodModel
import Foundation
import Logging
import Nutrition
import Pipeline
import Snapshot
import Testing
import TestSupport

/// The daily-value standards as data, and the nutrition review of a real run on the sample.
@Suite struct NutritionPipelineTests {
    /// Each standard file against the FDA's own table of daily values saved as a test input
    /// (docs/nutrition.md), read here with a plain CSV split; units compared by their first word
    /// ("mcg RAE").
    @Test(arguments: [("fda-2016", "fda-daily-values-2016.csv"), ("fda-pre-2016", "fda-daily-values-pre2016.csv")])
    func standardFilesHoldTheFDATables(standard name: String, table: String) throws {
        let standard = try StandardReader.load(name, pipelinesFolder: Paths.pipelines)
        #expect(standard.name == name)
        let lines = try String(contentsOf: Paths.sharedData.appendingPathComponent(table), encoding: .utf8)
            .split(separator: "\n").dropFirst()
        #expect(standard.values.count == lines.count)
        for line in lines {
            let fields = line.split(separator: ",", omittingEmptySubsequences: false)
            let key = NutrientKey(String(fields[0]))
            let value = try #require(standard.values[key], "\(key)")
            #expect(value.amount == Double(fields[1]), "\(key)")
            #expect(value.unit.rawValue == fields[2].split(separator: " ")[0], "\(key)")
            // The table's kind: a DRV's %DV is declared to the nearest 1%, an RDI's in steps.
            #expect(standard.dailyReferenceValues.contains(key) == (fields[3] == "DRV"), "\(key) is \(fields[3])")
        }
    }

    /// The Duke egg bite's label (`netnutrition-2025/duke-label-egg-bite.html`) prints potassium
    /// 120 mg, 3%: 120 / 3,500 = 3.43% is 3% as a daily reference value before 2016 (4% in the
    /// mineral steps, which the 2016 rule uses: 120 / 4,700 = 2.55% is 2% there).
    @Test func potassiumIsDeclaredAsTheStandardClassesIt() throws {
        let before = try StandardReader.load("fda-pre-2016", pipelinesFolder: Paths.pipelines)
        let after = try StandardReader.load("fda-2016", pipelinesFolder: Paths.pipelines)
        let potassium = NutrientValue(key: NutrientKey("potassium"), name: "Potas.", amount: 120, unit: "mg",
                                      printedDailyValuePercent: 3)
        #expect(before.labelPercent(of: potassium.key, amount: 120, unit: "mg") == 3)
        #expect(try #require(before.agreement(of: potassium)).agreesFromDeclared)
        #expect(after.labelPercent(of: potassium.key, amount: 120, unit: "mg") == 2)
    }

    @Test func aDailyReferenceValueWithoutADailyValueNamesTheLine() throws {
        let error = try loadingError("standard: odd\ndaily_reference_values: [sodium, protein]\ndaily_values:\n  sodium: 2400 mg\n")
        #expect(error.contains("odd.yml:2") && error.contains("protein has no daily value"), "\(error)")
    }

    /// The error of loading a standard file `odd.yml` that holds `text`.
    private func loadingError(_ text: String) throws -> String {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("odd.yml")
        try text.write(to: file, atomically: true, encoding: .utf8)
        do {
            _ = try StandardReader.load(file.path, pipelinesFolder: folder)
        } catch {
            return "\(error)"
        }
        Issue.record("odd.yml was read without an error")
        return ""
    }

    /// docs/nutrition.md: fat 65 g, saturated fat 20 g, cholesterol 300 mg, sodium 2400 mg,
    /// carbohydrate 130 g, fiber 25 g.
    @Test func theUCLALabelStandardHoldsWhatUCLAPrints() throws {
        let standard = try StandardReader.load("ucla-label", pipelinesFolder: Paths.pipelines)
        #expect(standard.values == [
            .totalFat: .init(amount: 65, unit: .g), .saturatedFat: .init(amount: 20, unit: .g),
            .cholesterol: .init(amount: 300, unit: .mg), .sodium: .init(amount: 2400, unit: .mg),
            .totalCarbohydrate: .init(amount: 130, unit: .g), .dietaryFiber: .init(amount: 25, unit: .g),
        ])
    }

    @Test func aStandardWithAnUnknownUnitNamesTheLine() throws {
        let error = try loadingError("standard: odd\ndaily_values:\n  sodium: 2400 mg\n  vitamin_e: 30 furlongs\n")
        #expect(error.contains("odd.yml:4") && error.contains("vitamin_e") && error.contains("IU"), "\(error)")
    }

    @Test func theSampleRunRecordsAgreementFlagsAndAnswersTheAnalystQuestions() async throws {
        let workspace = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: workspace) }
        let spec = try SpecReader.read(Paths.pipelines.appendingPathComponent("sample.yml"))
        let report = try await PipelineRunner(
            spec: spec,
            options: RunOptions(workspace: Workspace(root: workspace), today: try #require(ServiceDate("2026-10-12")),
                                arguments: ["run", "sample.yml"]),
            observer: SilentObserver(), logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })).run()
        let file = URL(fileURLWithPath: try #require(report.snapshotPath))
        func number(_ sql: String) throws -> Double? {
            switch try QueryResult.run(sql, on: file).rows.first?.first {
            case .integer(let value): Double(value)
            case .real(let value): value
            default: nil
            }
        }
        // One agreement row per printed %DV with an amount; the sample prints no ties, so all agree
        // from the printed amount itself (SampleData/README.md).
        let printed = try number("""
            SELECT count(*) FROM food_nutrient WHERE printed_dv_percent IS NOT NULL AND amount IS NOT NULL
            """)
        #expect(try number("SELECT count(*) FROM food_nutrient_agreement") == printed)
        #expect(try number("SELECT count(*) FROM food_nutrient_agreement WHERE agrees_from_declared AND agrees") == printed)
        // Calories are within 4% of 4P + 4C + 9F and no part exceeds its whole: no flags.
        #expect(try number("SELECT count(*) FROM food_flag") == 0)
        #expect(try number("SELECT count(*) FROM v_label_disagreements") == 0)
        let nutrition = report.manifest.checks.filter { ["dv_agreement", "energy_sanity", "implausible_value"].contains($0.name) }
        #expect(nutrition.filter { $0.name == "dv_agreement" }.count == 6)
        #expect(nutrition.count == 8)
        #expect(nutrition.allSatisfy { $0.passed })
        #expect(try number("SELECT count(*) FROM _checks WHERE name = 'dv_agreement' AND value = 1") == 6)

        // v_food_nutrition (replaced in migration 2) still has a row per food and nutrient.
        let nutrientRows = try number("SELECT count(*) FROM food_nutrient")
        #expect(try number("SELECT count(*) FROM v_food_nutrition") == nutrientRows)
        // The summaries cover every (day, meal, hall) of the menus.
        #expect(try number("SELECT count(*) FROM v_nutrition_summary") == 21)
        #expect(try number("SELECT sum(items) FROM v_nutrition_summary") == 124)
        // Vegan options with at least 10 g of protein, against the same question asked of the
        // base tables.
        let veganWithProtein = try number("""
            SELECT count(*) FROM menu_item mi JOIN food_code c ON c.food_id = mi.food_id AND c.code = 'VG'
            JOIN food_nutrient fn ON fn.food_id = mi.food_id AND fn.nutrient_key = 'protein' AND fn.amount >= 10
            """)
        #expect(try number("SELECT count(*) FROM v_menu_macros WHERE is_vegan AND protein_g >= 10") == veganWithProtein)
        #expect((veganWithProtein ?? 0) > 0)
        // The lowest-sodium entrée of each hall and meal is no saltier than any other entrée there.
        #expect(try number("""
            SELECT count(*) FROM v_lowest_sodium_entree l JOIN v_menu_macros m
            ON m.date = l.date AND m.meal = l.meal AND m.restaurant = l.restaurant
            WHERE m.is_entree AND m.sodium_mg < l.sodium_mg
            """) == 0)
        let mealsWithEntrees = try number("""
            SELECT count(*) FROM (SELECT DISTINCT date, meal, restaurant FROM v_menu_macros WHERE is_entree)
            """)
        #expect(try number("SELECT count(*) FROM v_lowest_sodium_entree") == mealsWithEntrees)
        #expect((mealsWithEntrees ?? 0) > 0)
    }
}
