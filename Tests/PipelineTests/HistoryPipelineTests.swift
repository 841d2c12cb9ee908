import FoodModel
import Foundation
import Logging
import Pipeline
import SnapshotTestSupport
import SourceAdapters
import YAMLConfig
import Snapshot
import Testing
import TestSupport

/// The historical dataset pipeline on real days of `../shared/data/ucla-dataset-2016`.
@Suite struct HistoryPipelineTests {
    /// Items of one day file, counted straight from the JSON, independently of the adapter.
    private func items(in day: String) throws -> Int {
        let file = Paths.sharedData.appendingPathComponent("ucla-dataset-2016/\(day).json")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: [[String: Any]]])
        return json.values.joined().reduce(0) { total, restaurant in
            total + ((restaurant["rk"] as? [[String: Any]]) ?? []).reduce(0) { $0 + (($1["i"] as? [Any])?.count ?? 0) }
        }
    }

    @Test func loadsTheRequestedDaysAndSkipsDaysTheDatasetDoesNotHave() async throws {
        let workspace = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: workspace) }
        var spec = try SpecReader.read(Paths.pipelines.appendingPathComponent("ucla-history-2016.yml"))
        spec.checks.minMenuItems = 100
        // 2016-08-08 has no file in the dataset.
        let range = DateSelection.range(from: try #require(ServiceDate("2016-08-07")),
                                        to: try #require(ServiceDate("2016-08-09")))
        let report = try await PipelineRunner(
            spec: spec,
            options: RunOptions(workspace: Workspace(root: workspace), dates: range,
                                today: try #require(ServiceDate("2016-08-09"))),
            observer: SilentObserver(), logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })).run()
        #expect(report.manifest.partitions.map(\.key) == ["2016-08-07", "2016-08-09"])
        let file = URL(fileURLWithPath: try #require(report.snapshotPath))
        let counts = try SnapshotReader.rowCounts(of: file)
        #expect(counts["menu_item"] == (try items(in: "2016-08-07")) + (try items(in: "2016-08-09")))
        #expect(counts["service_day"] == 2)
        // Cream of Wheat's label on 2016-07-25 is not in this range; Oatmeal's identity is its name.
        let oatmeal = try QueryResult.run("SELECT count(*) FROM food WHERE id = 'ucla-dataset:oatmeal'", on: file)
        #expect(oatmeal.rows.first?.first == .integer(1))
    }

    /// The whole 2016 history: 192 of its 2,122 foods (978 of its items) print a label whose
    /// every number is 0, counted with this test's own reading of the files (python, first label
    /// per folded name, as the adapter keeps). None keeps a 0 as an amount; each is flagged, and
    /// the run's warning gives the count.
    @Test func labelsOfZerosAreKeptWithoutAmountsAndChangedLabelsAsVersions() async throws {
        let workspace = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: workspace) }
        let spec = try SpecReader.read(Paths.pipelines.appendingPathComponent("ucla-history-2016.yml"))
        let report = try await PipelineRunner(
            spec: spec, options: RunOptions(workspace: Workspace(root: workspace), today: ServiceDate("2016-12-09")!),
            observer: SilentObserver(), logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })).run()
        let file = URL(fileURLWithPath: try #require(report.snapshotPath))
        func value(_ sql: String) throws -> SQLValue? { try QueryResult.run(sql, on: file).rows.first?.first }
        #expect(try value("SELECT count(*) FROM food") == .integer(2122))
        #expect(try DietFlags.disagreeing(in: file).isEmpty)
        #expect(try DietFlags.vegan(in: file) > 0)
        #expect(try value("SELECT count(*) FROM food_flag WHERE check_name = 'unfilled_label'") == .integer(192))
        #expect(try value("""
            SELECT count(*) FROM menu_item WHERE food_id IN
                (SELECT food_id FROM food_flag WHERE check_name = 'unfilled_label')
            """) == .integer(978))
        // No food whose amounts are all 0 is left, and the flagged ones have none at all.
        #expect(try value("""
            SELECT count(*) FROM food f WHERE EXISTS (SELECT 1 FROM food_nutrient n WHERE n.food_id = f.id AND n.amount IS NOT NULL)
                AND NOT EXISTS (SELECT 1 FROM food_nutrient n WHERE n.food_id = f.id AND n.amount != 0)
            """) == .integer(0))
        #expect(try value("""
            SELECT count(*) FROM food_nutrient WHERE amount IS NOT NULL AND food_id IN
                (SELECT food_id FROM food_flag WHERE check_name = 'unfilled_label')
            """) == .integer(0))
        #expect(try value("""
            SELECT count(*) FROM food WHERE calories IS NOT NULL AND id IN
                (SELECT food_id FROM food_flag WHERE check_name = 'unfilled_label')
            """) == .integer(0))
        let warning = try #require(report.manifest.checks.first { $0.name == "unfilled_label" })
        #expect(warning.value == 192)
        #expect(warning.message.hasPrefix("192 food(s) print a label of zeros"))

        // Labels as versions, counted by this test's own reading (python: per day, the first label
        // of each folded name in file order is the food's, then every item whose own 21 strings
        // read as another label has that one; versions in date order): 208 foods printed more
        // than one label, 453 versions between them, and 2,742 items were served with a later one.
        // (Taking the food's label for every item instead gives 199, 433 and 2,679.)
        #expect(try value("SELECT count(DISTINCT food_id) FROM food_label") == .integer(208))
        #expect(try value("SELECT count(*) FROM food_label") == .integer(453))
        #expect(try value("SELECT count(*) FROM menu_item WHERE label_version > 1") == .integer(2742))
        let versions = try #require(report.manifest.checks.first { $0.name == "label_versions" })
        #expect(versions.value == 2742)
        #expect(versions.message.hasPrefix("208 food(s) printed more than one label (453 versions kept); 2742 menu item(s)"))
        // Each hall's item is published with the label it printed (2016-07-25.json, breakfast,
        // Hot Cereals): Oatmeal 159 kcal at Sproul, 378 at Rieber; Steamed Rice 187 kcal at
        // Rendezvous' breakfast, 16 at Sproul's lunch.
        func calories(_ restaurant: String, _ meal: String, _ name: String) throws -> SQLValue? {
            try value("""
                SELECT DISTINCT calories FROM v_menu_macros WHERE date = '2016-07-25' AND restaurant = '\(restaurant)'
                AND meal = '\(meal)' AND item = '\(name)'
                """)
        }
        #expect(try calories("Sproul Dining", "Breakfast", "Oatmeal") == .real(159))
        #expect(try calories("Rieber Dining", "Breakfast", "Oatmeal") == .real(378))
        #expect(try calories("Rendezvous", "Breakfast", "Steamed Rice") == .real(187))
        #expect(try calories("Sproul Dining", "Lunch", "Steamed Rice") == .real(16))
        // And every one of the 37,037 items: per day, meal and name, the calories published are
        // the ones the items' own rows print (a label of zeros publishes none), as many times.
        var printed: [String: [Double?]] = [:]
        for day in try FileManager.default.contentsOfDirectory(atPath: Paths.sharedData.appendingPathComponent("ucla-dataset-2016").path)
            where day.hasSuffix(".json") {
            let file = Paths.sharedData.appendingPathComponent("ucla-dataset-2016/\(day)")
            let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: [[String: Any]]])
            for (key, meal) in [("b", "Breakfast"), ("l", "Lunch"), ("d", "Dinner")] {
                for hall in json[key] ?? [] {
                    for kitchen in hall["rk"] as? [[String: Any]] ?? [] {
                        for entree in kitchen["i"] as? [[String: Any]] ?? [] {
                            let strings = entree["n"] as? [String] ?? []
                            let zeros = strings.allSatisfy { Double($0.trimmingCharacters(in: CharacterSet(charactersIn: "gm%"))) ?? 0 == 0 }
                            let name = (entree["e"] as? String ?? "").split(whereSeparator: \.isWhitespace).joined(separator: " ")
                            printed["\(day.prefix(10))|\(meal)|\(name)", default: []].append(zeros ? nil : Double(strings.first ?? ""))
                        }
                    }
                }
            }
        }
        var published: [String: [Double?]] = [:]
        for row in try QueryResult.run("SELECT date, meal, item, calories FROM v_menu_macros", on: file).rows {
            guard case .text(let date) = row[0], case .text(let meal) = row[1], case .text(let item) = row[2] else { continue }
            let calories: Double? = if case .real(let value) = row[3] { value } else { nil }
            published["\(date)|\(meal)|\(item)", default: []].append(calories)
        }
        func sorted(_ values: [String: [Double?]]) -> [String: [Double]] { values.mapValues { $0.map { $0 ?? -1 }.sorted() } }
        #expect(printed.values.reduce(0) { $0 + $1.count } == 37_037)
        let publishedSorted = sorted(published)
        let differing = sorted(printed).filter { publishedSorted[$0.key] != $0.value }
        #expect(differing.isEmpty, "\(differing.count) day/meal/name groups differ, first: \(differing.first.map { "\($0)" } ?? "")")
        // Bruin Burger printed 405 kcal until 2016-09-16 and 278 kcal from 2016-09-15 (the files).
        let burger = """
            SELECT DISTINCT amount || ' ' || unit FROM v_menu_nutrition
            WHERE food_id = 'ucla-dataset:bruin burger' AND nutrient_key = 'calories' AND date =
            """
        #expect(try value(burger + "'2016-10-01'") == .text("278.0 kcal"))
        #expect(try value(burger + "'2016-08-01'") == .text("405.0 kcal"))
        // The one-row-per-item view reads the same label.
        #expect(try value("""
            SELECT DISTINCT calories FROM v_menu_macros WHERE food_id = 'ucla-dataset:bruin burger' AND date = '2016-10-01'
            """) == .real(278))
        // The food's own row is its first label.
        #expect(try value("SELECT calories FROM food WHERE id = 'ucla-dataset:bruin burger'") == .real(405))
        // Its history, counted from the files (python): on 114 days from 2016-07-25 to 2016-12-09,
        // 338 servings of a day, meal and hall; served on the run's day, so no estimate is needed.
        #expect(try QueryResult.run("""
            SELECT first_date, last_date, days_served, times_served, next_date, estimated_next_date
            FROM v_food_history WHERE food_id = 'ucla-dataset:bruin burger'
            """, on: file).rows == [[.text("2016-07-25"), .text("2016-12-09"), .integer(114), .integer(338),
                                     .text("2016-12-09"), .null]])
    }

    /// A food whose label changed between two snapshots' days shows the change in `diff`: up to
    /// 2016-09-10 Bruin Burger printed one label (405 kcal); up to 2016-10-01 it printed two.
    @Test func aLabelThatChangedShowsInTheDiff() async throws {
        let workspace = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: workspace) }
        let spec = try SpecReader.read(Paths.pipelines.appendingPathComponent("ucla-history-2016.yml"))
        func run(to last: String) async throws -> URL {
            let range = DateSelection.range(from: ServiceDate("2016-09-01")!, to: ServiceDate(last)!)
            let report = try await PipelineRunner(
                spec: spec, options: RunOptions(workspace: Workspace(root: workspace), dates: range,
                                                today: ServiceDate(last)!),
                observer: SilentObserver(), logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })).run()
            return URL(fileURLWithPath: try #require(report.snapshotPath))
        }
        let before = try await run(to: "2016-09-10")
        let after = try await run(to: "2016-10-01")
        let diff = try SnapshotDiff.between(before, after)
        let burger = try #require(diff.foodsChanged.first { $0.id == "ucla-dataset:bruin burger" })
        let change = try #require(burger.changes.first { $0.field == "label_versions" })
        #expect(change.old == nil)
        guard case .text(let versions)? = change.new else {
            Issue.record("no versions: \(String(describing: change.new))")
            return
        }
        #expect(versions.hasPrefix("v1: 405 kcal, 2016-09-0"))
        #expect(versions.contains("; v2: 278 kcal, 2016-09-15.."))

        // The report beside the second snapshot counts its changes from the first: every item of
        // the days after 2016-09-10 is added, none removed (the earlier days are the same files).
        let page = try String(contentsOf: after.appendingPathExtension("report.html"), encoding: .utf8)
        let perDay = try QueryResult.run("""
            SELECT date, count(*) FROM v_menu WHERE date > '2016-09-10' GROUP BY date ORDER BY date
            """, on: after).rows.map { row -> String in
            guard case .text(let date) = row[0], case .integer(let count) = row[1] else { return "" }
            return "<tr><td>\(date)</td><td class=\"n\">\(count)</td><td class=\"n\">0</td></tr>"
        }
        #expect(perDay.count == 21)
        let changes = try #require(page.range(of: "<section id=\"changes\">").map { start in
            String(page[start.upperBound...]).components(separatedBy: "</section>")[0]
        })
        for row in perDay { #expect(changes.contains(row), "\(row)") }
        #expect(!changes.contains("<td>2016-09-10</td><td class=\"n\">"))
    }
}
