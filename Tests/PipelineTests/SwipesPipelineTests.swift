import CommandAnswers
import FoodModel
import Foundation
import Logging
import Pipeline
import Snapshot
import Swipes
import Testing
import TestSupport

/// The plans and terms files, the `swipes:` section and the published tables, end to end.
@Suite struct SwipesPipelineTests {
    private func sampleSettings() throws -> SwipeSettings {
        let spec = try SpecReader.read(Paths.pipelines.appendingPathComponent("sample.yml"))
        return try #require(spec.swipes)
    }

    @Test func thePlansFileReproducesBruinLifesTablesAndPremierPools() throws {
        let settings = try sampleSettings()
        #expect(settings.catalog.plans.map(\.code) == ["19R", "19P", "14R", "14P", "11R", "11P"])
        let tables = ["19": [19, 16, 13, 10, 7, 4, 2, 0], "14": [14, 12, 10, 8, 6, 4, 2, 0],
                      "11": [11, 9, 8, 6, 5, 3, 1, 0]]
        for (size, table) in tables {
            let plan = try #require(settings.catalog.plan("\(size)R"))
            let monday = try #require(ServiceDate("2027-01-04"))
            let used = (0..<7).map { plan.swipes(on: monday.adding(days: $0)) }
            #expect((0...7).map { day in plan.weeklySwipes - used.prefix(day).reduce(0, +) } == table, "\(size)R")
        }
        #expect(settings.catalog.plan("19P")?.termPool == 209)
        #expect(settings.catalog.plan("14P")?.termPool == 154)
        #expect(settings.catalog.plan("11P")?.termPool == 121)
        #expect(settings.terms.map(\.name) == ["Fall 2026", "Winter 2027"])
    }

    @Test func the2024TermsFileStartsTheQuartersOnTheRegistrarsDays() throws {
        let url = Paths.pipelines.appendingPathComponent("terms/ucla-2024-25.yml")
        let spec = """
            pipeline: terms-only
            sources: [{name: m, adapter: mealdb-dump, location: ../SampleData/themealdb/meals.json}]
            swipes: {plans: plans/ucla.yml, terms: \(url.path)}
            """
        let settings = try #require(try SpecReader.parse(spec, file: Paths.pipelines.appendingPathComponent("x.yml")).swipes)
        #expect(settings.terms.map { "\($0.firstTableDay) \($0.weekOne) \($0.lastDay)" } == [
            "2024-09-23 2024-09-30 2024-12-15", "2025-01-06 2025-01-06 2025-03-23", "2025-03-31 2025-03-31 2025-06-15",
        ])
        let lines = try SwipeLookup.fromFiles(settings, plan: "19P", date: try #require(ServiceDate("2025-01-06")),
                                              meal: "dinner")
        #expect(lines.map { "\($0.weekLabel) \($0.period) \($0.balance)" } == ["Week 1 Dinner 206"])
    }

    @Test func aBadPlansFileNamesTheFileLineAndKey() throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try """
            plans:
              - code: 19P
                kind: premier
                daily: [3, 3, 3, 3, 3, 2, 2]
            default_periods: {weekdays: [Breakfast], weekends: [Brunch]}
            """.write(to: folder.appendingPathComponent("plans.yml"), atomically: true, encoding: .utf8)
        try "terms: [{name: T, first_day: 2026-13-01}]\n"
            .write(to: folder.appendingPathComponent("terms.yml"), atomically: true, encoding: .utf8)
        let meals = Paths.sampleData.appendingPathComponent("themealdb/meals.json").path
        let spec = """
            pipeline: bad
            sources: [{name: m, adapter: mealdb-dump, location: \(meals)}]
            swipes: {plans: plans.yml, terms: terms.yml}
            """
        #expect {
            try SpecReader.parse(spec, file: folder.appendingPathComponent("p.yml"))
        } throws: { error in
            "\(error)".contains("terms.yml:1") && "\(error)".contains("first_day")
        }
        try "terms: [{name: T, first_day: 2026-09-21}]\n"
            .write(to: folder.appendingPathComponent("terms.yml"), atomically: true, encoding: .utf8)
        #expect {
            try SpecReader.parse(spec, file: folder.appendingPathComponent("p.yml"))
        } throws: { error in
            "\(error)".contains("plans.yml:2") && "\(error)".contains("pool")
        }
    }

    @Test func theSampleSnapshotHasTheBalancesWorkedOutByHand() async throws {
        let workspace = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: workspace) }
        let spec = try SpecReader.read(Paths.pipelines.appendingPathComponent("sample.yml"))
        let report = try await PipelineRunner(
            spec: spec,
            options: RunOptions(workspace: Workspace(root: workspace), today: try #require(ServiceDate("2026-10-12"))),
            observer: SilentObserver(), logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })).run()
        let file = URL(fileURLWithPath: try #require(report.snapshotPath))
        func texts(_ sql: String) throws -> [String] {
            try QueryResult.run(sql, on: file).rows.map { row in
                row.map { value -> String in
                    switch value {
                    case .text(let text): text
                    case .integer(let number): String(number)
                    case .real(let number): String(number)
                    default: "NULL"
                    }
                }.joined(separator: " ")
            }
        }
        // Fall 2026 (21 September to 13 December, 12 weeks) and Winter 2027 (4 January to
        // 21 March, 11 weeks), 19 periods a week, 6 plans: (12 + 11) × 19 × 6.
        #expect(try texts("SELECT count(*) FROM swipe_balance") == ["2622"])
        // The sample's three days took their periods from its menus (SampleData/README.md).
        #expect(try texts("""
            SELECT date, group_concat(period, '/') FROM (SELECT date, period FROM swipe_balance
            WHERE plan = '19P' AND period_source = 'menu' ORDER BY date, position) GROUP BY date
            """) == ["2026-10-10 Brunch/Dinner", "2026-10-11 Brunch/Dinner", "2026-10-12 Breakfast/Lunch/Dinner"])
        // 19P: 12 weeks × 19 = 228 reference swipes less the two closed days (3 + 3) = 222.
        // After Monday 12 October: 3 weeks (57) + Breakfast, Lunch, Dinner; 209 × (222 − k) / 222
        // is 154.40, 153.45, 152.51.
        #expect(try texts("""
            SELECT week_label, period, balance FROM v_swipe_table WHERE plan = '19P' AND date = '2026-10-12'
            ORDER BY position
            """) == ["Week 3 Breakfast 154", "Week 3 Lunch 153", "Week 3 Dinner 153"])
        // 14R on Sunday 11 October (Week 2 ends): 14 − 12 after Saturday, then Brunch and Dinner.
        #expect(try texts("""
            SELECT period, balance FROM swipe_balance WHERE plan = '14R' AND date = '2026-10-11' ORDER BY position
            """) == ["Brunch 1", "Dinner 0"])
        #expect(try texts("""
            SELECT period_source, sum(swipes), min(balance) FROM swipe_balance
            WHERE plan = '19R' AND date = '2026-11-26' GROUP BY 1
            """) == ["closed 0 10"])
        #expect(try texts("""
            SELECT term, balance FROM swipe_balance WHERE plan IN ('19P', '11P')
            AND date IN ('2026-12-13', '2027-03-21') AND period = 'Dinner' ORDER BY plan, date
            """) == ["Fall 2026 0", "Winter 2027 0", "Fall 2026 0", "Winter 2027 0"])
        // 6614.28 / (3 × 209) = 10.549; 5301.00 / (3 × 121) = 14.603.
        #expect(try texts("SELECT code, price_per_swipe FROM meal_plan WHERE code IN ('19P', '11R') ORDER BY code")
                == ["11R 14.6", "19P 10.55"])
        #expect(try SwipeLookup.fromSnapshot(file, plan: "19p", date: try #require(ServiceDate("2026-10-12")),
                                             meal: "LUNCH").map(\.balance) == [153])
    }
}
