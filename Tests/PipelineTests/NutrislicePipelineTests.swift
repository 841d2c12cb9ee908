import FoodModel
import Foundation
import Logging
import Pipeline
import Snapshot
import SourceAdapters
import Testing
import TestSupport

/// The three real weeks of UW–Madison's Four Lakes Market (`../shared/data/nutrislice-2025`,
/// breakfast, lunch and dinner of the week of 2025-08-17) served in the weeks API's layout by a
/// server on 127.0.0.1, through a whole run into a snapshot. Expected values were read off the
/// files by hand (with `jq`).
@Suite struct NutrislicePipelineTests {
    /// Food rows of each day of each week, 2025-08-17 to 2025-08-23 (breakfast serves nothing on
    /// Saturday the 23rd).
    static let foodRows: [String: [Int]] = [
        "Breakfast": [26, 19, 21, 21, 22, 21, 0],
        "Lunch": [35, 48, 52, 49, 47, 46, 35],
        "Dinner": [39, 46, 42, 45, 42, 41, 11],
    ]

    private func pipeline(_ server: NutrisliceWeeks.Server, schools: [(slug: String, restaurant: String)]) -> String {
        let sources = schools.map { school in
            """
              - name: \(school.slug)
                adapter: nutrislice
                location: \(server.root)
                school: \(school.slug)
                menu_types: [breakfast, lunch, dinner]
                restaurant: \(school.restaurant)
                dates: {from: 2025-08-17, to: 2025-08-23}
            """
        }.joined(separator: "\n")
        return """
            pipeline: wisc
            licence: test
            sources:
            \(sources)
            checks: {min_menu_items: 1}
            fetch: {delay_ms: 0, retries: 0, timeout_seconds: 10}
            """
    }

    private func run(_ yaml: String, workspace: URL) async throws -> RunReport {
        let spec = try SpecReader.parse(yaml, file: workspace.appendingPathComponent("wisc.yml"))
        return try await PipelineRunner(
            spec: spec, options: RunOptions(workspace: Workspace(root: workspace), today: ServiceDate("2025-08-17")!),
            observer: SilentObserver(), logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })).run()
    }

    private func rows(_ sql: String, _ report: RunReport) throws -> [[SQLValue]] {
        try QueryResult.run(sql, on: URL(fileURLWithPath: try #require(report.snapshotPath))).rows
    }

    /// The Tofu (1309638) is 3 oz at 90 kcal, 8 g protein, 40 mg sodium at lunch and dinner on
    /// 2025-08-17, -18 and -21. Dinner on the 18th is edited to print 4.5 oz at 135 kcal, 12 g
    /// protein, 60 mg sodium: each meal's item shows the label printed for it, and the food has
    /// two versions, the 3 oz one served on three days, the 4.5 oz one on one.
    @Test func oneFoodWithTwoLabelsInOneDayShowsEachMealItsOwn() async throws {
        let workspace = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: workspace) }
        let server = try NutrisliceWeeks.Server()
        defer { server.stop() }
        try server.serveRealWeeks(school: "four-lakes-market")
        var dinner = try NutrisliceWeeks.answer("dinner")
        try NutrisliceWeeks.editFood(1309638, on: "2025-08-18", in: &dinner) { food in
            food["serving_size_info"] = ["serving_size_amount": "4.5", "serving_size_unit": "oz"]
            NutrisliceWeeks.editLabel(of: &food) { label in
                label["calories"] = 135.0
                label["g_protein"] = 12.0
                label["mg_sodium"] = 60.0
            }
        }
        server.serve(try NutrisliceWeeks.data(dinner), at: NutrisliceWeeks.path(school: "four-lakes-market", menuType: "dinner"))
        let report = try await run(pipeline(server, schools: [("four-lakes-market", "Four Lakes Market")]), workspace: workspace)
        #expect(report.published, "\(report.blockingChecks.map(\.message))")

        let tofu = "food_id = 'nutrislice:1309638'"
        #expect(try rows("""
            SELECT date, meal, calories, protein_g, sodium_mg FROM v_menu_macros WHERE \(tofu) ORDER BY date, meal
            """, report) == [
            [.text("2025-08-17"), .text("Dinner"), .real(90), .real(8), .real(40)],
            [.text("2025-08-17"), .text("Lunch"), .real(90), .real(8), .real(40)],
            [.text("2025-08-18"), .text("Dinner"), .real(135), .real(12), .real(60)],
            [.text("2025-08-18"), .text("Lunch"), .real(90), .real(8), .real(40)],
            [.text("2025-08-21"), .text("Dinner"), .real(90), .real(8), .real(40)],
            [.text("2025-08-21"), .text("Lunch"), .real(90), .real(8), .real(40)],
        ])
        #expect(try rows("""
            SELECT meal, label_version, amount, unit FROM v_menu_nutrition
            WHERE \(tofu) AND date = '2025-08-18' AND nutrient_key = 'sodium' ORDER BY meal
            """, report) == [[.text("Dinner"), .integer(2), .real(60), .text("mg")],
                             [.text("Lunch"), .integer(1), .real(40), .text("mg")]])
        #expect(try rows("""
            SELECT version, calories, serving_size, first_date, last_date, days FROM food_label WHERE \(tofu) ORDER BY version
            """, report) == [
            [.integer(1), .real(90), .text("3 oz"), .text("2025-08-17"), .text("2025-08-21"), .integer(3)],
            [.integer(2), .real(135), .text("4.5 oz"), .text("2025-08-18"), .text("2025-08-18"), .integer(1)],
        ])
        // The food's own row is its first label.
        #expect(try rows("SELECT calories, serving_size FROM food WHERE id = 'nutrislice:1309638'", report)
                == [[.real(90), .text("3 oz")]])
        // Vitamin D read in mcg, said once per day and menu type that serves anything: seven
        // lunches, seven dinners, six breakfasts.
        let units = report.manifest.checks.filter {
            $0.name == "partition_warning" && $0.message.contains("rounded_nutrition_info.mg_vitamin_d: ")
        }
        #expect(units.count == 20)
        #expect(units.allSatisfy { $0.message.contains("read in mcg, not mg") })
        #expect(try rows("SELECT DISTINCT unit FROM v_food_nutrition WHERE nutrient_key = 'vitamin_d'", report)
                == [[.text("mcg")]])
    }

    /// Two locations of one organisation sharing dates and meal names (the real weeks served
    /// under two schools' paths) publish one snapshot: one meal row per date and name, each with
    /// both restaurants' items, every food row of both answers kept.
    @Test func twoSchoolsSharingDatesAndMealsPublishOneSnapshot() async throws {
        let workspace = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: workspace) }
        let server = try NutrisliceWeeks.Server()
        defer { server.stop() }
        try server.serveRealWeeks(school: "four-lakes-market")
        try server.serveRealWeeks(school: "gordon-avenue-market")
        let report = try await run(pipeline(server, schools: [("four-lakes-market", "Four Lakes Market"),
                                                              ("gordon-avenue-market", "Gordon Avenue Market")]),
                                   workspace: workspace)
        #expect(report.published, "\(report.blockingChecks.map(\.message))")
        #expect(report.manifest.partitions.allSatisfy { $0.status == .fetched })
        let file = URL(fileURLWithPath: try #require(report.snapshotPath))
        #expect(try DietFlags.disagreeing(in: file).isEmpty)
        #expect(try DietFlags.vegan(in: file) > 0)

        // Breakfast on 7 dates but the 23rd, lunch and dinner on all 7: 20 meals, each once.
        #expect(try rows("SELECT count(*), count(DISTINCT service_day_id || '/' || name) FROM meal", report)
                == [[.integer(20), .integer(20)]])
        var expected: [[SQLValue]] = []
        for (index, date) in NutrisliceWeeks.dates.enumerated() {
            for meal in ["Breakfast", "Dinner", "Lunch"] {
                guard let count = Self.foodRows[meal]?[index], count > 0 else { continue }
                for restaurant in ["Four Lakes Market", "Gordon Avenue Market"] {
                    expected.append([.text(date), .text(meal), .text(restaurant), .integer(Int64(count))])
                }
            }
        }
        #expect(try rows("""
            SELECT date, meal, restaurant, count(*) FROM v_menu GROUP BY date, meal, restaurant ORDER BY date, meal, restaurant
            """, report) == expected)
        // 130 breakfast, 312 lunch and 266 dinner rows a school.
        #expect(try rows("SELECT count(*) FROM menu_item", report) == [[.integer(2 * (130 + 312 + 266))]])
        // Within a meal, the first source's restaurant comes first, the second's after it.
        #expect(try rows("""
            SELECT r.name, min(mi.position), max(mi.position) FROM menu_item mi
            JOIN section s ON s.id = mi.section_id JOIN restaurant r ON r.id = s.restaurant_id
            WHERE mi.meal_id = (SELECT m.id FROM meal m JOIN service_day d ON d.id = m.service_day_id
                                WHERE d.date = '2025-08-18' AND m.name = 'Breakfast')
            GROUP BY r.name ORDER BY r.name
            """, report) == [[.text("Four Lakes Market"), .integer(1), .integer(19)],
                             [.text("Gordon Avenue Market"), .integer(20), .integer(38)]])
    }
}
