import Basics
import FoodModel
import Foundation
import Logging
@testable import Pipeline
import Snapshot
import SnapshotTestSupport
import SourceAdapters
import Testing
import TestSupport

/// UCLA's live feed through the bundled nightly pipeline, night after night, on the seven real
/// nights saved (`UCLAJamixNights`) and served by a local mirror (`UCLAJamixFeedServer`).
/// Expected counts are taken from the JSON by the tests' own reading of it, not by the adapter's.
@Suite struct UCLAJamixPipelineTests {
    /// A run of the pipeline with `night` as its day, as cron would start it that night.
    func run(_ spec: PipelineSpec, night: ServiceDate, workspace: URL) async throws -> RunReport {
        try await PipelineRunner(
            spec: spec,
            options: RunOptions(workspace: Workspace(root: workspace), today: night),
            observer: SilentObserver(), logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })).run()
    }

    /// A portion as the feed writes it ("1.69 oz"), in grams; nil for any other unit.
    private static func grams(_ portion: String) -> Double? {
        let parts = portion.split(separator: " ")
        guard parts.count == 2, let amount = Double(parts[0]), amount > 0 else { return nil }
        switch parts[1] {
        case "oz": return amount * 28.349523125
        case "lb": return amount * 453.59237
        case "g": return amount
        default: return nil
        }
    }

    /// A recipe document's own portion (`recipePortionSize` + unit) in grams; nil without a
    /// document or a weight.
    private static func recipePortionGrams(_ food: String) throws -> Double? {
        let file = UCLAJamixNights.folder.appendingPathComponent("recipes/\(food.dropFirst("recipe-".count)).json")
        guard FileManager.default.fileExists(atPath: file.path),
              let json = try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any],
              let size = (json["recipePortionSize"] as? NSNumber)?.doubleValue, let unit = json["recipePortionSizeUnit"] as? String
        else { return nil }
        return grams("\(size) \(unit)")
    }

    /// Whether a food id's saved document has a label with some value that is not 0, read here
    /// from the files.
    private static func hasFilledLabel(_ food: String) throws -> Bool {
        func filled(_ values: [String: Any]?) -> Bool {
            (values ?? [:]).contains { key, value in
                key != "portion" && key != "portionSize"
                    && ((value as? NSNumber) ?? ((value as? [String: Any])?["value"] as? NSNumber)).map { $0.doubleValue != 0 } == true
            }
        }
        if food.hasPrefix("recipe-") {
            let file = UCLAJamixNights.folder.appendingPathComponent("recipes/\(food.dropFirst("recipe-".count)).json")
            guard let data = try? Data(contentsOf: file) else { return false }
            let fields = try JSONSerialization.jsonObject(with: data) as? [String: Any]
            return filled(fields?["recipeNutritiveValues"] as? [String: Any])
        }
        let all = try JSONSerialization.jsonObject(
            with: Data(contentsOf: UCLAJamixNights.folder.appendingPathComponent("ingredients-2025-11-07.json"))) as? [String: Any]
        let document = all?[String(food.dropFirst("ingredient-".count))] as? [String: Any]
        return filled(document?["ingredientNutritiveValues"] as? [String: Any])
    }

    /// Every date on the night's menus is a day of Spring 2025 (terms/ucla-2024-25.yml: from
    /// Wednesday 26 March, ten weeks and finals), with a balance for each of UCLA's plans after
    /// each meal the feed lists that day: the periods are the menus'.
    /// The Datasette canned query `least_sodium`, as published beside the snapshot, on a night of
    /// per-100 g recipe labels: it lists sodium per serving (the amount per 100 g × the serving's
    /// grams / 100, worked out here from `v_food_nutrition`'s own columns), lowest first, and no
    /// food with a flagged label.
    private static func expectLeastSodiumPerServing(_ snapshot: URL) throws {
        let metadata = try #require(try JSONSerialization.jsonObject(
            with: Data(contentsOf: URL(fileURLWithPath: snapshot.path + ".metadata.json"))) as? [String: Any])
        let database = try #require((metadata["databases"] as? [String: Any])?[snapshot.deletingPathExtension().lastPathComponent]
                                    as? [String: Any])
        let sql = try #require(((database["queries"] as? [String: Any])?["least_sodium"] as? [String: Any])?["sql"] as? String)
        let listed = try QueryResult.run(sql, on: snapshot).rows
        #expect(listed.count == 20)
        var previous = -Double.infinity
        for row in listed {
            guard case .text(let food) = row[0], let perServing = number(row[2]) else {
                Issue.record("\(row)"); continue
            }
            #expect(perServing >= previous)
            previous = perServing
            let quoted = "'" + food.replacingOccurrences(of: "'", with: "''") + "'"
            let labels = try QueryResult.run("""
                SELECT amount, basis, serving_grams, food_flags FROM v_food_nutrition WHERE food = \(quoted) AND nutrient_key = 'sodium'
                """, on: snapshot).rows
            let perServingByHand = labels.compactMap { label -> Double? in
                guard label[3] == .integer(0), let amount = number(label[0]) else { return nil }
                switch label[1] {
                case .text("serving"): return amount
                case .text("100 g"): return number(label[2]).map { amount * $0 / 100 }
                default: return nil
                }
            }
            #expect(perServingByHand.contains { abs($0 - perServing) < 1e-9 }, "\(food): \(labels)")
        }
    }

    private static func number(_ value: SQLValue) -> Double? {
        switch value {
        case .real(let number): number
        case .integer(let number): Double(number)
        default: nil
        }
    }

    private static func expectSpringSwipeTables(in snapshot: URL, night: ServiceDate) throws {
        let plans = try String(contentsOf: Paths.pipelines.appendingPathComponent("plans/ucla.yml"), encoding: .utf8)
            .split(separator: "\n").filter { $0.hasPrefix("  - code: ") }.count
        #expect(plans == 6)
        for date in UCLAJamixNights.dates(of: night) {
            var meals: [String] = []
            for row in try UCLAJamixNights.rows(night: night, date: date) where !meals.contains(row.meal) { meals.append(row.meal) }
            let balances = try QueryResult.run(
                "SELECT term, plan, period, period_source FROM swipe_balance WHERE date = '\(date)' ORDER BY plan, position",
                on: snapshot).rows
            #expect(Set(balances.map { $0[0] }) == [.text("Spring 2025")], "\(date)")
            #expect(Set(balances.map { $0[1] }).count == plans, "\(date)")
            #expect(Set(balances.map { $0[3] }) == [.text("menu")], "\(date)")
            let periods = balances.filter { $0[1] == .text("19P") }.map { $0[2] }
            #expect(Set(periods) == Set(meals.map { SQLValue.text($0) }), "\(date): \(periods) against \(meals)")
        }
    }

    /// Past the last term's end the tables have no rows, which is said once, not an error; a
    /// month before the end, the run warns that the next year's calendar is needed.
    @Test func daysNoTermCoversAreNamedOnceAndTheEndIsAnnouncedAMonthAhead() throws {
        let nightly = try UCLAJamixNightly()
        defer { nightly.close() }
        let swipes = try #require(nightly.spec.swipes)
        // Spring 2025 ends on Sunday 15 June: Week 1 is Monday 31 March, then ten weeks and finals.
        let end = try #require(ServiceDate("2025-06-15"))
        #expect(swipes.terms.map(\.lastDay).max() == end)
        let summer = (1...3).map { ServiceDate(daysSinceEpoch: end.daysSinceEpoch + $0) }
        let late = SwipeTermChecks(settings: swipes, today: try #require(ServiceDate("2025-06-14")))
            .outcomes(menuDays: [end] + summer)
        #expect(late.map(\.name) == ["swipe_terms", "swipe_terms_end"])
        #expect(late.allSatisfy { $0.severity == .warning })
        #expect(late.first?.message.hasSuffix("covers 3 day(s) on the menus, which have no swipe balances: "
                                             + summer.map(\.description).joined(separator: ", ")) == true,
                "\(late.first?.message ?? "")")
        #expect(late.last?.message.contains("end on 2025-06-15, within 30 days of 2025-06-14") == true)
        // 30 days ahead: not yet; 29: the warning.
        let early = SwipeTermChecks(settings: swipes, today: ServiceDate(daysSinceEpoch: end.daysSinceEpoch - 30))
            .outcomes(menuDays: [end])
        #expect(early.isEmpty)
        let inside = SwipeTermChecks(settings: swipes, today: ServiceDate(daysSinceEpoch: end.daysSinceEpoch - 29))
            .outcomes(menuDays: [end])
        #expect(inside.map(\.name) == ["swipe_terms_end"])
        // Long past the end (2026-11-28 is 531 days after 2025-06-15): said plainly, not "within 30 days".
        let past = SwipeTermChecks(settings: swipes, today: try #require(ServiceDate("2026-11-28"))).outcomes(menuDays: [])
        #expect(past.map(\.message) == ["the term calendars (ucla-2024-25.yml) ended on 2025-06-15, 531 day(s) before "
                                         + "2026-11-28: add the next year's terms file to swipes.terms"])
    }

    /// One run per night, in order, against the seven real nights: each night's snapshot holds
    /// exactly that night's feed, a rerun of a night publishes nothing, each ingredient document
    /// is fetched once across the nights, and the diff of two nights lists what really changed.
    @Test func sevenRealNightsInOrder() async throws {
        // The bundled nightly pipeline itself, pointed at the local mirror instead of UCLA.
        let nightly = try UCLAJamixNightly()
        defer { nightly.close() }
        let (workspace, feed, spec) = (nightly.workspace, nightly.feed, nightly.spec)
        let places = try #require(spec.places)
        var previous: (night: ServiceDate, snapshot: URL)?
        var labels: [String: Bool] = [:]
        for night in UCLAJamixNights.nights {
            feed.nightBox.set(night)
            let report = try await run(spec, night: night, workspace: workspace)
            #expect(report.published, "night \(night): \(report.blockingChecks.map(\.message))")
            let snapshot = URL(fileURLWithPath: try #require(report.snapshotPath))

            // Exactly that night's feed: items per date, restaurant and station.
            var expected: [String: Int] = [:]
            for date in UCLAJamixNights.dates(of: night) {
                for row in try UCLAJamixNights.rows(night: night, date: date) {
                    let store = places.canonicalName(of: row.store) ?? row.store
                    expected["\(row.date)|\(store)|\(row.station)", default: 0] += 1
                }
            }
            let counted = try QueryResult.run("""
                SELECT date, restaurant, section, count(*) FROM v_menu GROUP BY date, restaurant, section
                """, on: snapshot).rows
            var found: [String: Int] = [:]
            for row in counted {
                guard case .text(let date) = row[0], case .text(let restaurant) = row[1], case .text(let section) = row[2],
                      case .integer(let count) = row[3] else { continue }
                found["\(date)|\(restaurant)|\(section)"] = Int(count)
            }
            #expect(found == expected, "night \(night)")

            // Recipe documents the mirror does not have (UCLA's server answered none for them):
            // those foods keep the kitchen's row name, and the run says how many, naming the first.
            let unread = report.manifest.checks.filter { $0.message.contains("food document(s) could not be read") }
            #expect(!unread.isEmpty && unread.allSatisfy { $0.severity == .warning && $0.message.contains("recipe-") })
            let named = try QueryResult.run("""
                SELECT count(*) FROM food f WHERE f.id LIKE 'ucla-jamix:recipe-%' AND f.has_page = 0
                AND NOT EXISTS (SELECT 1 FROM menu_item mi WHERE mi.food_id = f.id AND mi.name = f.name)
                """, on: snapshot).rows
            #expect(named == [[.integer(0)]])

            // Every menu item whose document exists with a filled label carries it; the others
            // are the items the run counts as without a label.
            var items = 0
            var labelled = 0
            for date in UCLAJamixNights.dates(of: night) {
                for row in try UCLAJamixNights.rows(night: night, date: date) {
                    items += 1
                    if labels[row.food] == nil { labels[row.food] = try Self.hasFilledLabel(row.food) }
                    if labels[row.food] == true { labelled += 1 }
                }
            }
            let carrying = try QueryResult.run("""
                SELECT count(*) FROM menu_item mi WHERE EXISTS (SELECT 1 FROM food_nutrient fn WHERE fn.food_id = mi.food_id)
                """, on: snapshot).rows
            #expect(carrying == [[.integer(Int64(labelled))]], "night \(night)")
            let share = try #require(report.manifest.checks.first { $0.name == "labelled_share" })
            // Named by the pipeline's source (`ucla`), as the check is made per source.
            #expect(share.message.hasPrefix("ucla: \(labelled) of \(items) menu item(s) carry a label"), "\(share.message)")
            #expect(share.message.contains("\(items - labelled) without"))

            // Foods served at a portion less than half or more than twice their recipe's own
            // (this test's reading of the files): flagged, and no other. On the first night, Taiwanese
            // Fried Chicken (recipe 1588, a 22.44 oz portion) is served at 1.69 oz on 2025-04-08.
            var mismatched: Set<String> = []
            for date in UCLAJamixNights.dates(of: night) {
                for row in try UCLAJamixNights.rows(night: night, date: date) where row.food.hasPrefix("recipe-") {
                    guard let portion = row.portion, let served = Self.grams(portion),
                          let own = try Self.recipePortionGrams(row.food), try Self.hasFilledLabel(row.food)
                    else { continue }
                    if max(served / own, own / served) > 2 { mismatched.insert("ucla-jamix:\(row.food)") }
                }
            }
            let flagged = try QueryResult.run("SELECT food_id FROM food_flag WHERE check_name = 'portion_mismatch'",
                                              on: snapshot).rows.compactMap { row -> String? in
                if case .text(let id) = row[0] { id } else { nil }
            }
            #expect(Set(flagged) == mismatched && flagged.count == mismatched.count, "night \(night)")
            if night == UCLAJamixNights.nights[0] {
                #expect(mismatched.contains("ucla-jamix:recipe-1588"))
                let chicken = try QueryResult.run("""
                    SELECT message FROM food_flag WHERE check_name = 'portion_mismatch' AND food_id = 'ucla-jamix:recipe-1588'
                    """, on: snapshot).rows
                #expect(chicken == [[.text("the menus serve it at 1.69 oz (47.9 g), but its per-serving amounts are for "
                                            + "its own serving, 22.44 oz (636.2 g)")]])
                // The menu views say it beside the per-serving figures: the portion served, and
                // that it is far from the serving they are for.
                let served = try QueryResult.run("""
                    SELECT DISTINCT portion, portion_mismatch, food_flags FROM v_menu_nutrition
                    WHERE food_id = 'ucla-jamix:recipe-1588' AND date = '2025-04-08' AND nutrient_key = 'sugars'
                    """, on: snapshot).rows
                #expect(served.first?.prefix(2) == [.text("1.69 oz"), .integer(1)], "\(served)")
                if case .integer(let flags)? = served.first?.last { #expect(flags >= 1) } else { Issue.record("\(served)") }
            }
            if night == UCLAJamixNights.nights[0] { try Self.expectLeastSodiumPerServing(snapshot) }
            // Every menu item of a flagged food says so in both menu views; no other does.
            for view in ["v_menu_macros", "v_menu_nutrition"] {
                let saying = try QueryResult.run("SELECT DISTINCT food_id FROM \(view) WHERE portion_mismatch", on: snapshot).rows
                    .compactMap { row -> String? in if case .text(let id) = row[0] { id } else { nil } }
                #expect(Set(saying) == mismatched, "\(view), night \(night)")
            }

            try Self.expectSpringSwipeTables(in: snapshot, night: night)
            #expect(!report.manifest.checks.contains { $0.name.hasPrefix("swipe_terms") }, "night \(night)")

            // A rerun of the same night publishes nothing.
            let rerun = try await run(spec, night: night, workspace: workspace)
            #expect(rerun.unchanged, "night \(night) rerun")

            // The diff against the night before: on the dates both nights hold, exactly the rows
            // that differ between their files.
            if let previous {
                let diff = try SnapshotDiff.between(previous.snapshot, snapshot)
                let shared = Set(UCLAJamixNights.dates(of: previous.night)).intersection(UCLAJamixNights.dates(of: night))
                // Rows as a multiset: a row served twice and then once is one removal.
                func keys(_ night: ServiceDate) throws -> [String: Int] {
                    var keys: [String: Int] = [:]
                    for date in shared {
                        for row in try UCLAJamixNights.rows(night: night, date: date) {
                            let store = places.canonicalName(of: row.store) ?? row.store
                            keys["\(row.date)|\(row.meal)|\(store)|\(row.station)|ucla-jamix:\(row.food)|\(row.name)|\(row.portion ?? "")",
                                 default: 0] += 1
                        }
                    }
                    return keys
                }
                func minus(_ a: [String: Int], _ b: [String: Int]) -> [String: Int] {
                    a.compactMapValues { $0 }.reduce(into: [:]) { result, entry in
                        let left = entry.value - (b[entry.key] ?? 0)
                        if left > 0 { result[entry.key] = left }
                    }
                }
                let before = try keys(previous.night)
                let after = try keys(night)
                func diffKeys(_ items: [SnapshotDiff.MenuItem]) -> [String: Int] {
                    items.filter { shared.contains(ServiceDate($0.date)!) }.reduce(into: [:]) { counts, item in
                        counts["\(item.date)|\(item.meal)|\(item.restaurant)|\(item.section)|\(item.foodId)|\(item.item)|\(item.portion ?? "")",
                               default: 0] += 1
                    }
                }
                #expect(diffKeys(diff.menuItemsAdded) == minus(after, before), "added, night \(night)")
                #expect(diffKeys(diff.menuItemsRemoved) == minus(before, after), "removed, night \(night)")
                #expect(!diff.menuItemsAdded.isEmpty || !diff.menuItemsRemoved.isEmpty)
            }
            previous = (night, snapshot)
        }

        // Each ingredient document that exists was asked for once over the seven nights.
        let ingredients = feed.server.requests.filter { $0.path.hasPrefix("/ingredients/") }
        let perPath = Dictionary(grouping: ingredients, by: \.path).mapValues(\.count)
        let served = try #require(try JSONSerialization.jsonObject(
            with: Data(contentsOf: UCLAJamixNights.folder.appendingPathComponent("ingredients-2025-11-07.json"))) as? [String: Any])
        let asked = perPath.filter { served[String($0.key.dropFirst("/ingredients/".count).dropLast(".json".count))] != nil }
        #expect(!asked.isEmpty)
        #expect(asked.values.allSatisfy { $0 == 1 }, "\(asked)")
    }

    /// `history: {keep: all}` over the seven nights: the last snapshot holds every date the feed
    /// ever published (2025-04-07..18), each day as the last night that published it had it, and
    /// the days no longer in the feed are read from the raw store without a request. Each
    /// night's change set from the night before replays to exactly that night's snapshot.
    @Test func historyKeepsEveryDateEverPublished() async throws {
        let nightly = try UCLAJamixNightly(adding: "\nhistory:\n  keep: all\n")
        defer { nightly.close() }
        let (workspace, feed, spec) = (nightly.workspace, nightly.feed, nightly.spec)
        #expect(spec.history == .all)
        let places = try #require(spec.places)
        var last: URL?
        var published: [URL] = []
        var lastNight: [ServiceDate: ServiceDate] = [:]
        for night in UCLAJamixNights.nights {
            feed.nightBox.set(night)
            let before = feed.server.requests.filter { $0.path.hasPrefix("/menus/") }.map(\.path)
            let report = try await run(spec, night: night, workspace: workspace)
            #expect(report.published, "night \(night): \(report.blockingChecks.map(\.message))")
            let snapshot = URL(fileURLWithPath: try #require(report.snapshotPath))
            // Every kept day before this night's window is taken from the parse cache, not parsed.
            let keptDays = lastNight.keys.filter { $0 < night }.count
            let fromCache = report.manifest.stages.first { $0.name == .parse }?.counts["partitions_from_cache"] ?? 0
            #expect(fromCache >= keptDays, "night \(night): \(fromCache) of \(keptDays)")
            // The change set from the night before replays to this night's snapshot, and leaves
            // the days before this night alone: their rows keep their ids.
            if let last {
                let changes = try await ChangeSetReplay.expectReplayGivesTheNew(old: last, new: snapshot)
                let items = try #require(changes.tables.first { $0.name == "menu_item" })
                let firstDay = Int64(night.year * 10_000 + night.month * 100 + night.day)
                let touched = (items.inserted + items.deleted + items.updated.map(\.key)).compactMap { row -> Int64? in
                    if case .integer(let id) = row.first { return id / 10_000_000 }
                    return nil
                }
                #expect(!touched.isEmpty && touched.allSatisfy { $0 >= firstDay }, "night \(night)")
                let days = try #require(changes.tables.first { $0.name == "service_day" })
                #expect(days.deleted.isEmpty && days.updated.isEmpty, "night \(night)")
                // Much smaller than the snapshot a client would download instead.
                let changeBytes = changes.json().utf8.count
                let snapshotBytes = try FileManager.default.attributesOfItem(atPath: snapshot.path)[.size] as? Int ?? 0
                print("night \(night): change set \(changeBytes) bytes of JSON, snapshot \(snapshotBytes) bytes\n\(changes.text())")
                #expect(changeBytes * 4 < snapshotBytes, "night \(night): \(changeBytes) of \(snapshotBytes)")
            }
            last = snapshot
            published.append(snapshot)
            for date in UCLAJamixNights.dates(of: night) { lastNight[date] = night }
            // Only the night's own window was asked for.
            let asked = Set(feed.server.requests.filter { $0.path.hasPrefix("/menus/") }.map(\.path))
                .subtracting(before)
            #expect(asked.isSubset(of: Set((0...5).map { "/menus/\(night.adding(days: $0)).json" })), "\(asked)")
        }
        // Beside each snapshot but the first, its change file, which the reference client reads
        // gzipped; a client three nights behind (night 4) gets night 7 by `changes --since`,
        // which composes the three files from night 4.
        #expect(!FileManager.default.fileExists(atPath: published[0].path + SnapshotStore.changesSuffix))
        try await ChangeSetReplay.expectReplay(of: URL(fileURLWithPath: published[6].path + SnapshotStore.changesSuffix),
                                               onto: published[5], gives: published[6])
        let behind = try #require(try SnapshotReader.meta(of: published[3])["run_id"])
        let since = try await CommissaryProcess.run(["changes", "--since", behind, "--workspace", workspace.path, "--format", "json"])
        #expect(since.status == 0, "\(since.error)")
        let composed = workspace.appendingPathComponent("since.json")
        try Data(since.output.utf8).write(to: composed)
        try await ChangeSetReplay.expectReplay(of: composed, onto: published[3], gives: published[6])

        let snapshot = try #require(last)
        let dates = try QueryResult.run("SELECT date FROM service_day ORDER BY date", on: snapshot).rows
        #expect(dates == (7...18).map { [.text("2025-04-\(String(format: "%02d", $0))")] })
        for (date, night) in lastNight {
            var expected: [String: Int] = [:]
            for row in try UCLAJamixNights.rows(night: night, date: date) {
                expected["\(places.canonicalName(of: row.store) ?? row.store)|\(row.station)", default: 0] += 1
            }
            var found: [String: Int] = [:]
            for row in try QueryResult.run("""
                SELECT restaurant, section, count(*) FROM v_menu WHERE date = '\(date)' GROUP BY restaurant, section
                """, on: snapshot).rows {
                guard case .text(let restaurant) = row[0], case .text(let section) = row[1],
                      case .integer(let count) = row[2] else { continue }
                found["\(restaurant)|\(section)"] = Int(count)
            }
            #expect(found == expected, "\(date) as of night \(night)")
        }

        // `run --date D` refetches D alone and publishes the whole history with D replaced: the
        // feed as it was the night before D serves D's menu as planned then, which the night of D
        // changed (so D really is replaced; a D that had not changed would leave the snapshot
        // current, and which partition of a night reads a shared food document varies with timing).
        let date = UCLAJamixNights.nights[2]
        let planned = UCLAJamixNights.nights[1]
        #expect(try UCLAJamixNights.rows(night: planned, date: date) != (try UCLAJamixNights.rows(night: date, date: date)))
        feed.nightBox.set(planned)
        let repaired = try await PipelineRunner(
            spec: spec,
            options: RunOptions(workspace: Workspace(root: workspace), dates: .range(from: date, to: date), today: date),
            observer: SilentObserver(), logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })).run()
        #expect(repaired.published && repaired.stale.isEmpty)
        let fetched = repaired.manifest.partitions.filter { $0.status == .fetched }.map(\.key)
        #expect(fetched == [date.description])
        let repairedFile = URL(fileURLWithPath: try #require(repaired.snapshotPath))
        #expect(try QueryResult.run("SELECT date FROM service_day ORDER BY date", on: repairedFile).rows == dates)
        let count = "SELECT count(*) FROM v_menu WHERE date = '\(date)'"
        #expect(try QueryResult.run(count, on: repairedFile).rows
            == [[.integer(Int64(try UCLAJamixNights.rows(night: planned, date: date).count))]])
        let others = "SELECT count(*) FROM v_menu WHERE date <> '\(date)'"
        #expect(try QueryResult.run(others, on: repairedFile).rows == (try QueryResult.run(others, on: snapshot).rows))
    }
}
