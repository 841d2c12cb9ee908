@testable import CommandAnswers
import FoodModel
import Foundation
import GRDB
import Logging
import Pipeline
import Snapshot
import Testing
import TestSupport

/// `commissary watch`: favourites on the menus of the days ahead, those new tonight marked, with
/// what is expected read from the nights' own files; and `v_food_history` counted by hand.
@Suite struct WatchTests {
    private func run(_ spec: PipelineSpec, today: ServiceDate, workspace: URL, force: Bool = false) async throws -> URL {
        let report = try await PipelineRunner(
            spec: spec, options: RunOptions(workspace: Workspace(root: workspace), today: today, force: force),
            observer: SilentObserver(), logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })).run()
        #expect(report.published, "\(today): \(report.blockingChecks.map(\.message))")
        return URL(fileURLWithPath: try #require(report.snapshotPath))
    }

    private func sample(today: ServiceDate, in workspace: URL, force: Bool = false) async throws -> URL {
        try await run(try SpecReader.read(Paths.pipelines.appendingPathComponent("sample.yml")), today: today,
                      workspace: workspace, force: force)
    }

    private func watchFile(_ text: String, in folder: URL) throws -> URL {
        let file = folder.appendingPathComponent("watch-\(UUID().uuidString).yml")
        try Data(text.utf8).write(to: file)
        return file
    }

    /// Two consecutive real nights of UCLA's feed: with a rule every item matches, the items
    /// marked new are exactly the rows of the second night's files (today and later) that the
    /// first night's files did not have, counted as a multiset of dishes (recipe or ingredient)
    /// per day, meal, restaurant and station; read from the change file, and again from the
    /// previous snapshot once the change file is gone. A dish is its recipe, not its printed
    /// name: Rendezvous prints recipe 5908 as "REND TACO BYO" one night and beside it as
    /// "REND BURRITO BYO" the next, which is one more serving of the same dish.
    @Test func theItemsMarkedNewAreExactlyThoseTheSecondNightsFilesAdded() async throws {
        let nightly = try UCLAJamixNightly()
        defer { nightly.close() }
        let places = try #require(nightly.spec.places)
        let (first, second) = (UCLAJamixNights.nights[0], UCLAJamixNights.nights[1])
        var snapshot: URL?
        for night in [first, second] {
            nightly.feed.nightBox.set(night)
            snapshot = try await run(nightly.spec, today: night, workspace: nightly.workspace)
        }
        let latest = try #require(snapshot)
        func rows(_ night: ServiceDate) throws -> [String: Int] {
            var keys: [String: Int] = [:]
            for date in UCLAJamixNights.dates(of: night) where date >= second {
                for row in try UCLAJamixNights.rows(night: night, date: date) {
                    let store = places.canonicalName(of: row.store) ?? row.store
                    keys["\(row.date)|\(row.meal)|\(store)|\(row.station)|ucla-jamix:\(row.food)", default: 0] += 1
                }
            }
            return keys
        }
        let before = try rows(first)
        let expected = try rows(second).reduce(into: [String: Int]()) { added, entry in
            let count = entry.value - (before[entry.key] ?? 0)
            if count > 0 { added[entry.key] = count }
        }
        #expect(!expected.isEmpty && expected.values.reduce(0, +) > 100)
        let everything = WatchList(rules: [WatchRule(item: NamePattern("*"))])
        func marked() throws -> (keys: [String: Int], answer: Watch.Answer) {
            let answer = try Watch.run(everything, snapshot: latest, today: second)
            let keys = answer.matches.filter(\.isNew).reduce(into: [String: Int]()) { keys, match in
                let item = match.item
                keys["\(item.date)|\(item.meal)|\(item.restaurant)|\(item.section)|\(item.foodID)", default: 0] += 1
            }
            return (keys, answer)
        }
        let fromChanges = try marked()
        #expect(fromChanges.answer.comparedWith != nil)
        #expect(fromChanges.keys == expected, "\(Self.difference(fromChanges.keys, expected))")
        let newLines = fromChanges.answer.text.split(separator: "\n").filter { $0.hasPrefix("new  ") }
        #expect(newLines.count == expected.values.reduce(0, +))

        try FileManager.default.removeItem(atPath: latest.path + SnapshotStore.changesSuffix)
        let fromSnapshot = try marked()
        #expect(fromSnapshot.answer.comparedWith == fromChanges.answer.comparedWith)
        #expect(fromSnapshot.keys == expected, "\(Self.difference(fromSnapshot.keys, expected))")
    }

    /// A pattern with `*` or `?` is a glob over the whole name, without one it is found anywhere;
    /// case never matters. Terms are read as people write them, and only the vocabulary's.
    @Test func patternsAndTermsReadAsTheDocsSay() {
        #expect(NamePattern("*tikka*").matches("Chicken TIKKA Masala"))
        #expect(!NamePattern("tikka*").matches("Chicken Tikka Masala"))
        #expect(NamePattern("pizza ?").matches("Pizza 2") && !NamePattern("pizza ?").matches("Pizza 12"))
        #expect(NamePattern("ramen").matches("Vegan Ramen Bowl") && !NamePattern("ramen").matches("Rame"))
        #expect(NamePattern("a*a*a*a*b").matches(String(repeating: "a", count: 200) + "b"))
        #expect(WatchFile.term(named: "peanut") == "peanuts" && WatchFile.term(named: "Tree nuts") == "tree_nuts")
        #expect(WatchFile.term(named: "tree-nut") == "tree_nuts" && WatchFile.term(named: "Low carbon") == "low_carbon")
        #expect(WatchFile.term(named: "nuts") == nil && WatchFile.term(named: "vegann") == nil)
    }

    /// A dish that may contain peanuts (a shared kitchen's warning) is not a peanut dish, and a
    /// person who avoids peanuts avoids it too.
    @Test func aMayContainTermIsLeftOutByNotButNotMatchedByTerm() {
        let item = UpcomingItem(id: 1, date: "2026-10-20", weekday: 2, meal: "Lunch", restaurant: "Stav Hall", campus: nil,
                                section: "Grill", item: "Satay", foodID: "x:1", food: "Satay", terms: ["vegan"],
                                mayContain: ["peanuts"])
        #expect(WatchRule(terms: ["vegan"]).matches(item))
        #expect(!WatchRule(terms: ["peanuts"]).matches(item))
        #expect(!WatchRule(terms: ["vegan"], excluded: ["peanuts"]).matches(item))
        #expect(WatchRule(terms: ["vegan"], excluded: ["milk"]).matches(item))
    }

    /// What differs between two multisets, a few keys of each side, for a failure to show.
    private static func difference(_ found: [String: Int], _ expected: [String: Int]) -> String {
        let extra = found.filter { expected[$0.key] != $0.value }.keys.sorted().prefix(5)
        let missing = expected.filter { found[$0.key] != $0.value }.keys.sorted().prefix(5)
        return "marked but not expected (or counted otherwise): \(Array(extra)); expected but not so marked: \(Array(missing))"
    }

    /// `term` keeps items whose food carries every term named, `not` leaves out those carrying
    /// one: the ids a query of `v_menu_code` gives for the same question.
    @Test func aTermAndANotTermChooseWhatTheMenusCodesSay() async throws {
        let workspace = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: workspace) }
        let today = try #require(ServiceDate("2026-10-11"))
        let snapshot = try await sample(today: try #require(ServiceDate("2026-10-10")), in: workspace)
        func ids(_ sql: String) throws -> Set<Int64> {
            Set(try QueryResult.run(sql, on: snapshot).rows.compactMap { row -> Int64? in
                if case .integer(let id) = row[0] { return id }
                return nil
            })
        }
        let vegetarian = try ids("SELECT menu_item_id FROM v_menu_code WHERE term = 'vegetarian' AND date >= '\(today)'")
        let withMilk = try ids("SELECT menu_item_id FROM v_menu_code WHERE term = 'milk'")
        let list = try WatchFile.read(watchFile("watch:\n  - term: Vegetarian\n    not: [milk]\n", in: workspace))
        let found = Set(try Watch.run(list, snapshot: snapshot, today: today).matches.map(\.item.id))
        #expect(!vegetarian.intersection(withMilk).isEmpty, "the sample must hold vegetarian items with milk")
        #expect(found == vegetarian.subtracting(withMilk))
        let dates = try Watch.run(list, snapshot: snapshot, today: today).matches.map(\.item.date)
        #expect(!dates.isEmpty && dates.allSatisfy { $0 >= "\(today)" })
    }

    /// The command: quiet with status 9 when nothing matches, status 0 and one JSON object that
    /// parses when something does, and a bad watch file named with its line and key (status 1).
    @Test func theCommandIsQuietOnNoMatchAndItsJSONParses() async throws {
        let workspace = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: workspace) }
        _ = try await sample(today: try #require(ServiceDate("2026-10-10")), in: workspace)
        func watch(_ text: String, _ extra: [String] = []) async throws -> CommissaryProcess.Outcome {
            try await CommissaryProcess.run(["watch", try watchFile(text, in: workspace).path, "--workspace", workspace.path,
                                             "--today", "2026-10-10"] + extra)
        }
        let none = try await watch("watch:\n  - item: no such dish anywhere\n")
        #expect(none.status == 9 && none.output.isEmpty && none.error.isEmpty, "\(none)")

        let json = try await watch("watch:\n  - item: \"quinoa*\"\n    restaurant: de neve\n", ["--format", "json"])
        #expect(json.status == 0, "\(json.error)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])
        let matches = try #require(object["matches"] as? [[String: Any]])
        #expect(object["today"] as? String == "2026-10-10" && object["compared_with"] is NSNull)
        #expect(!matches.isEmpty && matches.allSatisfy {
            ($0["item"] as? String)?.lowercased().hasPrefix("quinoa") == true && $0["restaurant"] as? String == "De Neve"
                && $0["new"] as? Bool == false && ($0["terms"] as? [String])?.contains("vegan") == true
        }, "\(matches)")

        let bad = try await watch("days: 3\nwatch:\n  - item: soup\n    term: vegann\n")
        #expect(bad.status == 1 && bad.output.isEmpty, "\(bad)")
        #expect(bad.error.contains(".yml:4:") && bad.error.contains("watch[0].term: unknown term \"vegann\""), "\(bad.error)")
    }

    /// Each favourite comes with its meal's hours that day. The sample's Bruin Classic
    /// Cheeseburger, read by hand from its menu pages and Hours.html: Brunch at Bruin Plate on
    /// Saturday the 10th (the Lunch column, 10:00am - 2:00pm "(Brunch)"), Brunch at De Neve on
    /// the 11th (10:00am - 3:00pm "(Brunch)"), Lunch at De Neve on Monday the 12th (11:00am -
    /// 3:00pm). In a copy of the snapshot, De Neve's lunch of the 12th said closed and Bruin
    /// Plate's hours of the 10th removed: closed as the source says, and no time at all; De
    /// Neve's brunch of the 11th given a second remark, as a cell may print one: said beside it.
    @Test func aFavouriteComesWithItsMealsHours() async throws {
        let workspace = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: workspace) }
        let snapshot = try await sample(today: try #require(ServiceDate("2026-10-10")), in: workspace)
        let burger = WatchList(rules: [WatchRule(item: NamePattern("bruin classic cheeseburger"))])
        let today = try #require(ServiceDate("2026-10-10"))
        func timed(_ answer: Watch.Answer) throws -> [[String]] {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(answer.json.utf8)) as? [String: Any])
            return try #require(object["matches"] as? [[String: Any]]).map { match in
                ["date", "meal", "restaurant", "opens", "closes"].map { match[$0] as? String ?? "-" }
                    + [(match["closed"] as? Bool).map { "\($0)" } ?? "-"]
            }
        }
        let answer = try Watch.run(burger, snapshot: snapshot, today: today)
        let weekend = [["2026-10-10", "Brunch", "Bruin Plate", "10:00", "14:00", "false"],
                       ["2026-10-11", "Brunch", "De Neve", "10:00", "15:00", "false"]]
        #expect(try timed(answer) == weekend + [["2026-10-12", "Lunch", "De Neve", "11:00", "15:00", "false"]])
        #expect(answer.text.contains("2026-10-11 Sun  Brunch 10:00am–3:00pm  De Neve (UCLA), Flex Bar: Bruin Classic Cheeseburger"),
                "\(answer.text)")

        let copy = workspace.appendingPathComponent("changed.sqlite")
        try FileManager.default.copyItem(at: snapshot, to: copy)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: copy.path)
        try await DatabaseQueue(path: copy.path).write { db in
            try db.execute(sql: """
                UPDATE hours SET is_closed = 1, opens = NULL, closes = NULL
                WHERE restaurant = 'De Neve' AND date = '2026-10-12' AND meal = 'Lunch'
                """)
            #expect(db.changesCount == 1)
            try db.execute(sql: "DELETE FROM hours WHERE restaurant = 'Bruin Plate' AND date = '2026-10-10'")
            #expect(db.changesCount == 4)
            try db.execute(sql: """
                UPDATE hours SET note = 'Brunch; Closed 1:30-2:00PM'
                WHERE restaurant = 'De Neve' AND date = '2026-10-11' AND meal = 'Lunch'
                """)
            #expect(db.changesCount == 1)
        }
        let changed = try Watch.run(burger, snapshot: copy, today: today)
        #expect(try timed(changed) == [["2026-10-10", "Brunch", "Bruin Plate", "-", "-", "false"],
                                       ["2026-10-11", "Brunch", "De Neve", "10:00", "15:00", "false"],
                                       ["2026-10-12", "Lunch", "De Neve", "-", "-", "true"]])
        let lines = changed.text.split(separator: "\n").map(String.init)
        #expect(lines.contains("     2026-10-10 Sat  Brunch  Bruin Plate (UCLA), Harvest: Bruin Classic Cheeseburger  "
                               + "[item bruin classic cheeseburger]"), "\(changed.text)")
        #expect(lines.contains { $0.contains("2026-10-12 Mon  Lunch (closed, as the source says)  De Neve (UCLA)") },
                "\(changed.text)")
        #expect(lines.contains { $0.contains("2026-10-11 Sun  Brunch 10:00am–3:00pm (Closed 1:30-2:00PM)  De Neve (UCLA)") },
                "\(changed.text)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(changed.json.utf8)) as? [String: Any])
        #expect(try #require(json["matches"] as? [[String: Any]]).map { $0["remarks"] as? [String] }
                == [[], ["Closed 1:30-2:00PM"], []])

        // De Neve's four rows of the 12th (Breakfast, Lunch, Dinner, Late Night on the hours page)
        // replaced by one saying it is closed all day: its lunch, listed all the same, is closed.
        let closedDay = workspace.appendingPathComponent("closed-day.sqlite")
        try FileManager.default.copyItem(at: snapshot, to: closedDay)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: closedDay.path)
        try await DatabaseQueue(path: closedDay.path).write { db in
            try db.execute(sql: "DELETE FROM hours WHERE restaurant = 'De Neve' AND date = '2026-10-12'")
            #expect(db.changesCount == 4)
            try db.execute(sql: """
                INSERT INTO hours (restaurant, date, meal, is_closed, note, campus)
                VALUES ('De Neve', '2026-10-12', ?, 1, 'Staff Training', 'UCLA')
                """, arguments: [HoursEntry.closedDayMeal])
        }
        let closed = try Watch.run(burger, snapshot: closedDay, today: today)
        #expect(try timed(closed) == weekend + [["2026-10-12", "Lunch", "De Neve", "-", "-", "true"]])
        #expect(closed.text.contains("2026-10-12 Mon  Lunch (closed, as the source says: Staff Training)  De Neve (UCLA)"),
                "\(closed.text)")
    }

    /// The sample's Quinoa Tabbouleh, counted by hand from its three menu pages: Brunch at
    /// Covel, De Neve and Bruin Plate and Dinner at Covel on Saturday the 10th, Brunch at De Neve
    /// on the 11th, Lunch and Dinner at De Neve on Monday the 12th.
    @Test func aDishsHistoryIsWhatItsMenusSay() async throws {
        let workspace = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: workspace) }
        let query = """
            SELECT first_date, last_date, days_served, times_served, restaurants, meals, weekdays, next_date, as_of,
                   typical_gap_days, estimated_next_date FROM v_food_history WHERE food_id = 'ucla-menu:041180'
            """
        let during = try await sample(today: try #require(ServiceDate("2026-10-11")), in: workspace)
        let served: [SQLValue] = [.text("2026-10-10"), .text("2026-10-12"), .integer(3), .integer(7),
                                  .text("Bruin Plate (UCLA), De Neve (UCLA), Epicuria at Covel (UCLA)"),
                                  .text("Brunch, Dinner, Lunch"), .text("1, 6, 7")]
        #expect(try QueryResult.run(query, on: during).rows
            == [served + [.text("2026-10-11"), .text("2026-10-11"), .real(1), .null]])
        // After its last day no menu has it: the estimate says when it usually comes back.
        let after = try await sample(today: try #require(ServiceDate("2026-10-13")), in: workspace, force: true)
        #expect(try QueryResult.run(query, on: after).rows
            == [served + [.null, .text("2026-10-13"), .real(1), .text("2026-10-13")]])
    }
}
