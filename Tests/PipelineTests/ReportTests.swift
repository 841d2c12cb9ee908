import Foundation
import Logging
import Pipeline
import Report
import Snapshot
import Testing
import TestSupport
import FoodModel
import Basics
import GRDB

/// The HTML page beside every published snapshot: each section's numbers against a query of the
/// snapshot, the 2016 history's gaps, and the page as headless Chromium loads and draws it.
@Suite struct ReportTests {
    private func publish(_ pipeline: String, workspace: URL, force: Bool = false) async throws -> URL {
        let spec = try SpecReader.read(Paths.pipelines.appendingPathComponent(pipeline))
        let report = try await PipelineRunner(
            spec: spec, options: RunOptions(workspace: Workspace(root: workspace), today: ServiceDate("2026-10-12")!,
                                            force: force),
            observer: SilentObserver(), logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })).run()
        return URL(fileURLWithPath: try #require(report.snapshotPath))
    }

    private func rows(_ sql: String, _ file: URL) throws -> [[String]] {
        try QueryResult.run(sql, on: file).rows.map { row in
            row.map { value in
                switch value {
                case .integer(let number): String(number)
                case .real(let number): SVGNumber.text(number)
                case .text(let text): text
                case .null: ""
                default: "\(value)"
                }
            }
        }
    }

    /// The table rows of one section, as cells.
    private func tableRows(of section: String, in page: String) -> [[String]] {
        guard let start = page.range(of: "<section id=\"\(section)\">"),
              let end = page.range(of: "</section>", range: start.upperBound..<page.endIndex) else { return [] }
        return page[start.upperBound..<end.lowerBound].components(separatedBy: "<tr>").dropFirst().compactMap { row in
            let cells = row.components(separatedBy: "<td").dropFirst().map { cell in
                String(cell.drop { $0 != ">" }.dropFirst().prefix { $0 != "<" })
            }
            return cells.isEmpty ? nil : cells
        }
    }

    /// The kinds of check the page shows as failed, each with its count, by name.
    private func failedKinds(in page: String) -> [[String]] {
        let pattern = #"<code>([^<]+)</code> <span class="count">(\d+) failed"#
        let regex = try? NSRegularExpression(pattern: pattern)
        let range = NSRange(page.startIndex..., in: page)
        return (regex?.matches(in: page, range: range) ?? []).map { match in
            (1...2).map { String(page[Range(match.range(at: $0), in: page)!]) }
        }.sorted { $0[0] < $1[0] }
    }

    /// Each source's items and labelled items on the page are what the run's `labelled_share`
    /// check counted from the parsed foods ("ucla-menu: 124 of 124 menu item(s) carry a label…"),
    /// and its days one by one add up to them.
    private func expectLabelCoverage(in page: String, of snapshot: URL) throws {
        let counted = try rows("SELECT message FROM _checks WHERE name = 'labelled_share' ORDER BY message", snapshot)
            .compactMap { row -> [String]? in
                let words = row[0].split(separator: " ").map(String.init)
                guard words.count > 3, words[2] == "of" else { return nil }
                return [String(words[0].dropLast()), words[3], words[1]]
            }
        let labels = tableRows(of: "labels", in: page)
        #expect(!counted.isEmpty && labels.filter { $0.count == 7 }.map { [$0[0], $0[2], $0[3]] } == counted)
        let days = labels.filter { $0.count == 4 }
        #expect(days.reduce(0) { $0 + (Int($1[2]) ?? 0) } == counted.reduce(0) { $0 + (Int($1[2]) ?? 0) })
        #expect(days.reduce(0) { $0 + (Int($1[1]) ?? 0) } == counted.reduce(0) { $0 + (Int($1[1]) ?? 0) })
    }

    @Test func theSamplesPageHasEverySectionWithTheSnapshotsNumbers() async throws {
        let workspace = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: workspace) }
        let first = try await publish("sample.yml", workspace: workspace)
        let pageFile = first.appendingPathExtension("report.html")
        let page = try String(contentsOf: pageFile, encoding: .utf8)
        let permissions = try FileManager.default.attributesOfItem(atPath: pageFile.path)[.posixPermissions] as? Int
        #expect(permissions == 0o444)
        #expect(!page.contains("<script"))
        for section in ["headline", "coverage", "checks", "labels", "changes", "diets", "nutrition", "estimates", "swipes",
                        "recipes"] {
            #expect(page.contains("<section id=\"\(section)\">"), "\(section)")
        }
        #expect(page.contains("No previous snapshot to compare with."))
        // The sample names the nutrition reference: its twelve recipes are counted as estimated or not.
        #expect(!page.contains("<p class=\"none\">No nutrition estimates in this snapshot"))
        let estimated = try rows("SELECT count(*) - count(reason) FROM food_estimate", first)[0][0]
        #expect(page.contains("\(estimated) of 12 recipe(s) and food(s) have an estimate"), "\(estimated)")
        // Coverage: days and items per restaurant, as the snapshot counts them.
        let coverage = tableRows(of: "coverage", in: page).map { Array($0.prefix(3)) }
        #expect(coverage == (try rows("""
            SELECT restaurant, count(DISTINCT date), count(*) FROM v_menu GROUP BY restaurant ORDER BY restaurant
            """, first)))
        // Checks: a block per kind that failed, with its count, and the rest counted as passed.
        #expect(failedKinds(in: page) == (try rows("""
            SELECT name, count(*) FROM _checks WHERE NOT passed GROUP BY name, severity ORDER BY name
            """, first)))
        let passed = try rows("SELECT count(*) FROM _checks WHERE passed", first)[0][0]
        #expect(page.contains("<summary>\(passed) passed: "), "\(passed)")
        // Label coverage: the figures the run's own check counted while it built the snapshot.
        try expectLabelCoverage(in: page, of: first)
        // Recipes per category, largest first.
        let categories = tableRows(of: "recipes", in: page).filter { $0.count == 2 }
        let expected = try rows("SELECT category, count(*) FROM recipe GROUP BY category ORDER BY count(*) DESC, category", first)
        #expect(Array(categories.prefix(expected.count)) == expected)
        // Swipes: per term, one row per plan, with its balance after the term's first and last periods.
        let plans = try rows("""
            SELECT plan,
                   (SELECT balance FROM v_swipe_table u WHERE u.plan = t.plan AND u.term = t.term ORDER BY date, position LIMIT 1),
                   (SELECT balance FROM v_swipe_table u WHERE u.plan = t.plan AND u.term = t.term
                    ORDER BY date DESC, position DESC LIMIT 1)
            FROM (SELECT DISTINCT term, plan FROM v_swipe_table) t ORDER BY term, plan
            """, first)
        #expect(plans.count == 12)
        #expect(tableRows(of: "swipes", in: page).map { Array($0.prefix(3)) } == plans)
        if let measured = try PageInChromium.inspect(pageFile, name: "sample") {
            PageInChromium.expectLooksRight(measured, "sample")
            // Coverage, label coverage, two diets, two nutrition, the estimates' matched shares, two
            // swipe terms, two recipe charts.
            #expect(measured.charts == 11 && measured.texts > 100, "\(measured.charts) charts, \(measured.texts) texts")
        }

        // The next snapshot's page counts its changes from this one.
        let second = try await publish("sample.yml", workspace: workspace, force: true)
        let next = try String(contentsOf: second.appendingPathExtension("report.html"), encoding: .utf8)
        #expect(next.contains("Nothing changed since \(first.lastPathComponent)."))
        // A run reads its page from the new file while the file is verified, under its partial
        // name: the page is the one made from the published file, byte for byte.
        #expect(page == (try ReportPage.html(for: first, previous: nil)))
        #expect(next == (try ReportPage.html(for: second, previous: first)))
    }

    /// The changes section after an edited night, counted by hand from the edits: on 2026-10-11
    /// the page's first item removed (one removal), on 2026-10-12 one dish renamed, which that
    /// day's page prints twice (two removals and two additions, as `diff` counts renamed items).
    @Test func theChangesSectionCountsWhatTheEditsChanged() async throws {
        let workspace = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: workspace) }
        let (spec, site) = try SampleCopy.make(in: workspace)
        func publish() async throws -> URL {
            let report = try await PipelineRunner(
                spec: try SpecReader.read(spec),
                options: RunOptions(workspace: Workspace(root: workspace), today: ServiceDate("2026-10-12")!),
                observer: SilentObserver(), logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })).run()
            return URL(fileURLWithPath: try #require(report.snapshotPath))
        }
        let first = try await publish()
        try SampleCopy.removeFirstMenuItem(on: "2026-10-11", of: site)
        let monday = site.appendingPathComponent("Menus/2026-10-12.html")
        let renamed = try String(contentsOf: monday, encoding: .utf8)
            .replacingOccurrences(of: ">Breakfast Burrito w/ Salsa Roja</a>", with: ">Breakfast Burrito w/ Salsa Verde</a>")
        try Data(renamed.utf8).write(to: monday)
        let second = try await publish()
        let page = try String(contentsOf: second.appendingPathExtension("report.html"), encoding: .utf8)
        #expect(page.contains("since the previous snapshot"))
        #expect(tableRows(of: "changes", in: page).filter { $0.count == 3 }
                == [["2026-10-11", "0", "1"], ["2026-10-12", "2", "2"]], "\(first.lastPathComponent)")
        #expect(page == (try ReportPage.html(for: second, previous: first)))

        // Only days whose digests differ are compared. With 2026-10-11's items digest forged to
        // the first snapshot's, that day is taken as unchanged, whichever build wrote the rows.
        // Against a snapshot from before items digests (the column dropped), the rows' digests
        // decide, and only between snapshots of one build: every day is compared across two.
        let firstDigests = try await DatabaseQueue(path: first.path).read { db in
            try Row.fetchOne(db, sql: "SELECT rows_sha256, items_sha256 FROM _day_rows WHERE date = '2026-10-11'")
        }
        let (firstRows, firstItems): (String?, String?) = (firstDigests?[0], firstDigests?[1])
        #expect(firstRows != nil && firstItems != nil)
        let cases: [(name: String, forge: [String], expected: [[String]])] = [
            ("items forged, one build", ["UPDATE _day_rows SET items_sha256 = :items WHERE date = '2026-10-11'"],
             [["2026-10-12", "2", "2"]]),
            ("items forged, another build", ["UPDATE _day_rows SET items_sha256 = :items WHERE date = '2026-10-11'",
                                             "UPDATE _meta SET value = 'another build' WHERE key = 'day_rows_code'"],
             [["2026-10-12", "2", "2"]]),
            ("rows forged, items digests recorded", ["UPDATE _day_rows SET rows_sha256 = :rows WHERE date = '2026-10-11'"],
             [["2026-10-11", "0", "1"], ["2026-10-12", "2", "2"]]),
            ("rows forged, no items digests, one build",
             ["UPDATE _day_rows SET rows_sha256 = :rows WHERE date = '2026-10-11'",
              "ALTER TABLE _day_rows DROP COLUMN items_sha256"],
             [["2026-10-12", "2", "2"]]),
            ("rows forged, no items digests, another build",
             ["UPDATE _day_rows SET rows_sha256 = :rows WHERE date = '2026-10-11'",
              "ALTER TABLE _day_rows DROP COLUMN items_sha256",
              "UPDATE _meta SET value = 'another build' WHERE key = 'day_rows_code'"],
             [["2026-10-11", "0", "1"], ["2026-10-12", "2", "2"]]),
        ]
        for forgery in cases {
            let forged = workspace.appendingPathComponent("forged.sqlite")
            try? FileManager.default.removeItem(at: forged)
            try FileManager.default.copyItem(at: second, to: forged)
            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: forged.path)
            try await DatabaseQueue(path: forged.path).write { db in
                for sql in forgery.forge {
                    let arguments: StatementArguments = sql.contains(":items") ? ["items": firstItems]
                        : sql.contains(":rows") ? ["rows": firstRows] : []
                    try db.execute(sql: sql, arguments: arguments)
                }
            }
            let forgedPage = try ReportPage.html(for: forged, previous: first)
            #expect(tableRows(of: "changes", in: forgedPage).filter { $0.count == 3 } == forgery.expected, "\(forgery.name)")
        }
    }

    /// A label changed between nights is listed with how many of its values changed: Kale
    /// Caesar Salad's page (Recipes/041172/1.html) printing 500 mg of sodium where it printed
    /// 468.3 mg is one value. Between snapshots whose food tables one build wrote from one digest
    /// (`_meta.food_rows_sha256`) the labels are not compared: with the second's digest forged
    /// to the first's, nothing is listed, unless another build wrote them.
    @Test func theChangesSectionListsAChangedLabelUnlessTheFoodTablesAreTheSame() async throws {
        let workspace = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: workspace) }
        let (spec, site) = try SampleCopy.make(in: workspace)
        // Forced, so that the recipe pages are read again (a night reads a food's page only when due).
        func publish(force: Bool = false) async throws -> URL {
            let report = try await PipelineRunner(
                spec: try SpecReader.read(spec),
                options: RunOptions(workspace: Workspace(root: workspace), today: ServiceDate("2026-10-12")!,
                                    force: force),
                observer: SilentObserver(), logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })).run()
            return URL(fileURLWithPath: try #require(report.snapshotPath))
        }
        let first = try await publish()
        let salad = site.appendingPathComponent("Recipes/041172/1.html")
        let printed = try String(contentsOf: salad, encoding: .utf8)
        #expect(printed.contains("</span> 468.3mg <span"))
        try Data(printed.replacingOccurrences(of: "</span> 468.3mg <span", with: "</span> 500mg <span").utf8).write(to: salad)
        let second = try await publish(force: true)
        let changed = [["ucla-menu:041172", "Kale Caesar Salad", "1 value(s)"]]
        #expect(tableRows(of: "changes", in: try ReportPage.html(for: second, previous: first)) == changed)

        let firstFoods = try await DatabaseQueue(path: first.path).read { db in
            try String.fetchOne(db, sql: "SELECT value FROM _meta WHERE key = 'food_rows_sha256'")
        }
        #expect(firstFoods != nil)
        for (name, forge, expected) in [
            ("one build", ["UPDATE _meta SET value = :foods WHERE key = 'food_rows_sha256'"], [[String]]()),
            ("another build", ["UPDATE _meta SET value = :foods WHERE key = 'food_rows_sha256'",
                               "UPDATE _meta SET value = 'another build' WHERE key = 'day_rows_code'"], changed),
        ] {
            let forged = workspace.appendingPathComponent("forged.sqlite")
            try? FileManager.default.removeItem(at: forged)
            try FileManager.default.copyItem(at: second, to: forged)
            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: forged.path)
            try await DatabaseQueue(path: forged.path).write { db in
                for sql in forge {
                    try db.execute(sql: sql, arguments: sql.contains(":foods") ? ["foods": firstFoods] : [])
                }
            }
            #expect(tableRows(of: "changes", in: try ReportPage.html(for: forged, previous: first)) == expected, "\(name)")
        }
    }

    /// A week of UCLA's live feed, night after night with the history kept, the last night
    /// serving 2025-04-15's menu broken: that day is published stale from the night before, and
    /// the feed's recipe documents that do not exist are reported night after night. The
    /// calendar outlines the stale day and the page says why; the checks name each kind once
    /// with its count, one row per day, and fit in one screen with their details folded.
    @Test func aWeekOfUCLAsFeedFitsItsChecksOnOneScreen() async throws {
        let nightly = try UCLAJamixNightly(adding: "\nhistory:\n  keep: all\n")
        defer { nightly.close() }
        let (workspace, feed, spec) = (nightly.workspace, nightly.feed, nightly.spec)
        let broken = try #require(ServiceDate("2025-04-15"))
        var last: URL?
        for night in UCLAJamixNights.nights {
            feed.nightBox.set(night)
            if night == UCLAJamixNights.nights.last { feed.nightBox.breakMenu(of: broken) }
            let report = try await PipelineRunner(
                spec: spec, options: RunOptions(workspace: Workspace(root: workspace), today: night),
                observer: SilentObserver(), logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })).run()
            #expect(report.published, "night \(night): \(report.blockingChecks.map(\.message))")
            last = URL(fileURLWithPath: try #require(report.snapshotPath))
        }
        let snapshot = try #require(last)
        let pageFile = snapshot.appendingPathExtension("report.html")
        let page = try String(contentsOf: pageFile, encoding: .utf8)
        #expect(try rows("SELECT partition FROM _stale WHERE partition LIKE '2025-%'", snapshot) == [["2025-04-15"]])
        #expect(page.contains("<title>2025-04-15: stale</title>") && page.contains("<li>ucla/2025-04-15 is stale: published as fetched "))
        let stale = try rows("SELECT count(*) FROM _stale", snapshot)[0][0]
        #expect(page.contains("<span class=\"k\">stale</span><span class=\"v\">\(stale)</span>"), "\(stale)")
        #expect(failedKinds(in: page) == (try rows("""
            SELECT name, count(*) FROM _checks WHERE NOT passed GROUP BY name, severity ORDER BY name
            """, snapshot)))
        // One row per day in each kind: no day twice.
        let checks = try #require(page.range(of: "<section id=\"checks\">").map { page[$0.upperBound...] })
        for block in checks.components(separatedBy: "<div class=\"check\">").dropFirst() {
            let block = block.components(separatedBy: "</div>")[0]
            let folded = block.components(separatedBy: "<tr><td>").dropFirst().map { String($0.prefix { $0 != "<" }) }
            let shown = block.components(separatedBy: "<span class=\"day\">").dropFirst().map { String($0.prefix { $0 != "<" }) }
            let days = (folded.isEmpty ? shown : folded).filter { !$0.isEmpty }
            #expect(Set(days).count == days.count, "\(days)")
        }
        if let measured = try PageInChromium.inspect(pageFile, name: "ucla-week") {
            PageInChromium.expectLooksRight(measured, "ucla-week")
            #expect(measured.checksHeight > 100 && measured.checksHeight < 800, "checks \(measured.checksHeight) px tall")
        }
    }

    /// `latest-<pipeline>.report.html` is the newest night's page: the published snapshot's; after
    /// a night a check blocked, that night's page (what stopped it, what is still served, linked
    /// to its page); after the next good night, the new snapshot's again, the blocked night's page
    /// gone. `query latest` is not confused by the page's link.
    @Test func theNewestPageIsTheNewestNightsEvenWhenNothingWasPublished() async throws {
        let workspace = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: workspace) }
        let (spec, _) = try SampleCopy.make(in: workspace)
        let snapshots = workspace.appendingPathComponent("snapshots")
        let link = snapshots.appendingPathComponent("latest-sample.report.html")
        func night(_ extra: [String] = []) async throws -> Int32 {
            try await CommissaryProcess.run(["run", spec.path, "--workspace", workspace.path, "--quiet"] + extra).status
        }
        #expect(try await night() == 0)
        let first = try #require(SnapshotStore(directory: snapshots).latest(pipeline: "sample"))
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == first.lastPathComponent + ".report.html")

        let text = try String(contentsOf: spec, encoding: .utf8)
        try Data(text.replacingOccurrences(of: "min_menu_items: 100\n", with: "min_menu_items: 100000\n").utf8).write(to: spec)
        #expect(try await night(["--force"]) == 3)
        let blockedPage = try FileManager.default.destinationOfSymbolicLink(atPath: link.path)
        #expect(blockedPage.hasPrefix("sample-") && blockedPage.hasSuffix(".not-published.html"), "\(blockedPage)")
        let page = try String(contentsOf: link, encoding: .utf8)
        #expect(page.contains("<strong>Not published.</strong>"))
        #expect(page.contains("min_menu_items") || page.contains("menu items"), "the blocking check is said")
        #expect(page.contains("<a href=\"\(first.lastPathComponent).report.html\">\(first.lastPathComponent)</a>"))
        let query = try await CommissaryProcess.run(["query", "latest", "SELECT count(*) FROM menu_item", "--workspace", workspace.path])
        #expect(query.status == 0, "\(query.error)")

        try Data(text.utf8).write(to: spec)
        #expect(try await night(["--force"]) == 0)
        let second = try #require(SnapshotStore(directory: snapshots).latest(pipeline: "sample"))
        #expect(second != first)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == second.lastPathComponent + ".report.html")
        #expect(!FileManager.default.fileExists(atPath: snapshots.appendingPathComponent(blockedPage).path))
    }

    /// A label that cannot be right (9,591 kcal a serving, flagged) no longer sets the calorie
    /// chart's scale: the sample with one served food made so and flagged by hand; the chart and
    /// its numbers are those of the other items (worked out here in SQL), and the page says what
    /// was left out.
    @Test func aFlaggedOutlierIsLeftOutOfTheChartAndSaidSo() async throws {
        let workspace = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: workspace) }
        let published = try await publish("sample.yml", workspace: workspace)
        let snapshot = workspace.appendingPathComponent("damaged.sqlite")
        try FileManager.default.copyItem(at: published, to: snapshot)
        let food = try #require(try rows("""
            SELECT f.id FROM food f WHERE f.calories IS NOT NULL AND f.id IN (SELECT food_id FROM menu_item)
              AND f.id NOT IN (SELECT food_id FROM food_flag) ORDER BY f.id LIMIT 1
            """, snapshot).first?.first)
        try await DatabaseQueue(path: snapshot.path).write { db in
            try db.execute(sql: "UPDATE food SET calories = 9591 WHERE id = ?", arguments: [food])
            try db.execute(sql: "INSERT INTO food_flag (food_id, check_name, severity, message) VALUES (?, 'energy_sanity', 'error', 'by hand')",
                           arguments: [food])
        }
        let page = workspace.appendingPathComponent("damaged.html")
        let made = try await CommissaryProcess.run(["report", snapshot.path, "--out", page.path])
        #expect(made.status == 0, "\(made.error)")
        let text = try String(contentsOf: page, encoding: .utf8)
        let calorieRows = tableRows(of: "nutrition", in: text).filter { $0.count == 7 }
        let perMeal = try rows("""
            SELECT meal, count(calories), min(calories), max(calories) FROM v_menu_macros WHERE flags = 0 GROUP BY meal ORDER BY meal
            """, snapshot)
        #expect(Array(calorieRows.prefix(perMeal.count)).map { [$0[0], $0[1], $0[2], $0[6]] } == perMeal)
        #expect(!calorieRows.contains { $0[6] == "9591" })
        let servings = try rows("SELECT count(*) FROM menu_item WHERE food_id = '\(food)'", snapshot)
        #expect(text.contains("Calories per item, by meal (flagged labels left out)"))
        #expect(text.contains("Left out of the chart and its numbers: \(servings[0][0]) item(s) whose label is flagged, "
                              + "stating up to 9591 kcal per serving"), "\(servings)")
    }

    /// The whole 2016 history: the days with no menu at all are the dataset's missing files
    /// (2016-08-08 and Thanksgiving, 2016-11-24..26), and the summer-only halls end in August and
    /// September; headless Chromium loads the page and draws it.
    @Test func theHistorysGapsShowAndChromiumDrawsThePage() async throws {
        let workspace = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: workspace) }
        let snapshot = try await publish("ucla-history-2016.yml", workspace: workspace)
        let pageFile = snapshot.appendingPathExtension("report.html")
        let page = try String(contentsOf: pageFile, encoding: .utf8)
        #expect(page.contains("Days with no menu at all: 2016-08-08, 2016-11-24, 2016-11-25, 2016-11-26."))
        let lastDays = Dictionary(uniqueKeysWithValues: tableRows(of: "coverage", in: page).map { ($0[0], $0[4]) })
        #expect(lastDays["Sproul Dining"] == "2016-08-07")
        #expect(lastDays["Rieber Dining"] == "2016-09-08")
        #expect(lastDays["Bruin Plate"] == "2016-12-09")
        // Calories per meal: as many values as items with calories and an unflagged label in
        // `v_menu_macros` (the label of each item's own day), and the same extremes: flagged labels
        // are left out of the chart and its numbers.
        let calorieRows = tableRows(of: "nutrition", in: page).filter { $0.count == 7 }
        let perMeal = try rows("""
            SELECT meal, count(calories), min(calories), max(calories) FROM v_menu_macros WHERE flags = 0 GROUP BY meal ORDER BY meal
            """, snapshot)
        #expect(Array(calorieRows.prefix(perMeal.count)).map { [$0[0], $0[1], $0[2], $0[6]] } == perMeal)
        // Vegan items per restaurant, as the snapshot's vocabulary counts them.
        let diets = tableRows(of: "diets", in: page).map { [$0[0], $0[3]] }
        #expect(diets == (try rows("""
            SELECT restaurant, count(DISTINCT item_id) FROM (SELECT v.restaurant, mi.id AS item_id FROM menu_item mi
                JOIN v_food_term t ON t.food_id = mi.food_id AND t.term = 'vegan'
                JOIN section s ON s.id = mi.section_id JOIN restaurant r ON r.id = s.restaurant_id
                JOIN (SELECT DISTINCT restaurant FROM v_menu) v ON v.restaurant = r.name)
            GROUP BY restaurant ORDER BY restaurant
            """, snapshot)))

        try expectLabelCoverage(in: page, of: snapshot)
        if let measured = try PageInChromium.inspect(pageFile, name: "ucla-history-2016") {
            PageInChromium.expectLooksRight(measured, "ucla-history-2016")
            #expect(measured.charts >= 6 && measured.texts > 150, "\(measured.charts) charts, \(measured.texts) texts")
        }
    }
}

extension ReportTests {
    /// The 442 real TheMealDB meals estimated with SR24: the estimates section's counts, its
    /// histogram of matched shares and its unmatched names are the snapshot's rows, counted here
    /// in SQL by other means than the section's own queries; Chromium draws it without overflow.
    @Test func theEstimatesSectionCountsTheSnapshotsEstimates() async throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let report = try await BackfillFixtures.runner(try EstimatePipelineTests().spec(in: folder), workspace: folder).run()
        let snapshot = URL(fileURLWithPath: try #require(report.snapshotPath))
        let pageFile = snapshot.appendingPathExtension("report.html")
        let page = try String(contentsOf: pageFile, encoding: .utf8)
        let section = tableRows(of: "estimates", in: page)
        // Per kind: subjects, with an estimate (no reason), without (a reason).
        let kinds = try rows("""
            SELECT subject_kind, count(*), count(*) - count(reason), count(reason) FROM food_estimate GROUP BY 1 ORDER BY 1
            """, snapshot)
        #expect(kinds.count == 1 && kinds.first?[1] == "442", "\(kinds)")
        #expect(Array(section.prefix(kinds.count)) == kinds)
        let estimated = try #require(Int(kinds[0][2])), without = try #require(Int(kinds[0][3]))
        #expect(page.contains("\(estimated) of 442 recipe(s) and food(s) have an estimate, \(without) have none."))
        // The reasons add up to those without, one row each.
        let reasons = section.filter { $0.count == 2 }
        #expect(reasons.reduce(0) { $0 + (Int($1[1]) ?? 0) } == without, "\(reasons)")
        // Each tenth of matched share, by range, as the bar's tooltip; and those at 90 % or more.
        for band in 0..<10 {
            let count = try rows("""
                SELECT count(*) FROM food_estimate WHERE reason IS NULL AND matched_share >= \(band) / 10.0
                   AND (matched_share < \(band + 1) / 10.0 OR \(band) = 9)
                """, snapshot)[0][0]
            #expect(page.contains("<title>\(band * 10)–\(band * 10 + 10) %: \(count) estimated recipes and foods</title>"),
                    "band \(band): \(count)")
        }
        let whole = try rows("SELECT count(*) FROM food_estimate WHERE reason IS NULL AND matched_share >= 0.9", snapshot)[0][0]
        #expect(page.contains("<p>\(whole) of \(estimated) estimate(s) ("), "\(whole)")
        // The ten ingredient names most often unmatched, with their recipes and grams.
        let names = try rows("""
            SELECT name, count(*), count(DISTINCT subject_id), coalesce(CAST(round(sum(grams)) AS INTEGER), '–') FROM food_estimate_line
            WHERE reference_id IS NULL AND coalesce(reason, '') NOT LIKE 'unknown by override%'
            GROUP BY name ORDER BY 2 DESC, total(grams) DESC, name
            """, snapshot)
        let listed = section.filter { $0.count == 4 }.dropFirst(kinds.count)
        #expect(names.count > 10 && Array(listed.prefix(10)) == Array(names.prefix(10)), "\(listed.prefix(10))")
        #expect(page.contains("<summary>\(names.count - 10) more unmatched name(s)</summary>"))
        // By hand from the dump: Digestive Biscuits in four meals, 250 g (52833), 300 g (52859),
        // 200 g shredded (52924) and 100 g (53007), which SR24 has no food for.
        #expect(listed.contains(["Digestive Biscuits", "4", "4", "850"]))
        #expect(page.contains("Nutrients <strong>estimated</strong> from each recipe's ingredients"))
        if let measured = try PageInChromium.inspect(pageFile, name: "estimates") {
            PageInChromium.expectLooksRight(measured, "estimates")
            // Recipes per category and per area, and the estimates' matched shares.
            #expect(measured.charts == 3, "\(measured.charts) charts")
        }
    }
}

/// Numbers as the page prints them.
enum SVGNumber {
    static func text(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e12 ? String(Int(value)) : String(format: "%.2f", value)
    }
}

extension ReportTests {
    /// A snapshot changed after it was published (bytes that are no UTF-8 where a section reads
    /// text) makes the page fail with the snapshot's failure and the column as the query names it
    /// (a date changed is first read as its meals' day, `date`): each of these stopped the process.
    @Test(arguments: [
        ("UPDATE _checks SET name = x'ff'", "name"),
        ("UPDATE service_day SET date = x'ff' WHERE id = (SELECT min(id) FROM service_day)", "date"),
        ("UPDATE swipe_balance SET term = x'ff'", "term"),
    ])
    func aSnapshotChangedAfterItWasPublishedIsRefused(_ damage: String, column: String) async throws {
        let workspace = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: workspace) }
        let published = try await publish("sample.yml", workspace: workspace)
        let changed = workspace.appendingPathComponent("changed.sqlite")
        try FileManager.default.copyItem(at: published, to: changed)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: changed.path)
        try await DatabaseQueue(path: changed.path).write { db in try db.execute(sql: damage) }
        let refused = #expect(throws: Failure.self) { try ReportPage.html(for: changed, previous: nil) }
        #expect(refused?.code == .snapshot)
        #expect(refused?.message.contains("column: \"\(column)\"") == true, "\(refused.map { "\($0)" } ?? "")")
    }
}

extension ReportTests {
    /// Past a year, the calendars draw a column per week (Monday to Sunday), so a page of years
    /// stays a few hundred columns. The sample's three days (Saturday 2026-10-10 to Monday
    /// 2026-10-12) are copied 60 times, a week apart each, to 2027-12-06: 423 calendar days, 62
    /// weeks from the Monday 2026-10-05. Each week's cell holds the items the snapshot counts on
    /// that week's days.
    @Test func aHistoryLongerThanAYearIsDrawnByWeek() async throws {
        let workspace = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: workspace) }
        let published = try await publish("sample.yml", workspace: workspace)
        let long = workspace.appendingPathComponent("long.sqlite")
        try FileManager.default.copyItem(at: published, to: long)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: long.path)
        try await DatabaseQueue(path: long.path).write { db in
            let copies = "WITH RECURSIVE k(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM k WHERE n < 60)"
            try db.execute(sql: """
                \(copies) INSERT INTO service_day (id, date, weekday)
                SELECT id + n * 100000000, date(date, '+' || (7 * n) || ' days'), weekday FROM service_day, k;
                \(copies) INSERT INTO meal (id, service_day_id, name, position)
                SELECT id + n * 10000000000, service_day_id + n * 100000000, name, position FROM meal, k
                WHERE service_day_id < 100000000;
                \(copies) INSERT INTO menu_item (id, meal_id, section_id, food_id, position, name, portion, description,
                                                 planned_portions, served_with_id, label_version)
                SELECT id + n * 1000000000000000, meal_id + n * 10000000000, section_id, food_id, position, name, portion,
                       description, planned_portions, served_with_id + n * 1000000000000000, label_version
                FROM menu_item, k WHERE meal_id < 10000000000;
                """)
        }
        #expect(try rows("SELECT min(date), max(date), count(*) FROM service_day", long)
                == [["2026-10-10", "2027-12-06", "183"]])
        let page = try ReportPage.html(for: long, previous: nil)
        #expect(page.contains("Items served per restaurant and week"))
        #expect(page.contains("Items with a label, ucla-menu, per week"))
        #expect(page.contains("62 weeks one by one"))
        let perDay = try rows("""
            SELECT r.name, d.date, count(*) FROM menu_item mi JOIN meal m ON m.id = mi.meal_id
            JOIN service_day d ON d.id = m.service_day_id JOIN section s ON s.id = mi.section_id
            JOIN restaurant r ON r.id = s.restaurant_id
            WHERE d.date IN ('2026-10-10', '2026-10-11', '2026-10-12') GROUP BY 1, 2
            """, long)
        func items(_ restaurant: String, _ dates: [String]) -> Int {
            perDay.filter { $0[0] == restaurant && dates.contains($0[1]) }.reduce(0) { $0 + (Int($1[2]) ?? 0) }
        }
        let restaurants = Set(perDay.map { $0[0] }).filter { $0.allSatisfy { $0.isLetter || $0 == " " } }
        #expect(!restaurants.isEmpty)
        for restaurant in restaurants {
            // The first week holds the Saturday and Sunday; each later one their copies and the
            // Monday before them; the last, 2027-12-06, the sixtieth Monday alone.
            let weekend = items(restaurant, ["2026-10-10", "2026-10-11"])
            let monday = items(restaurant, ["2026-10-12"])
            if weekend > 0 { #expect(page.contains("\(restaurant), week of 2026-10-05: \(weekend) items")) }
            #expect(page.contains("\(restaurant), week of 2026-10-12: \(weekend + monday) items"))
            if monday > 0 { #expect(page.contains("\(restaurant), week of 2027-12-06: \(monday) items")) }
            #expect(!page.contains("\(restaurant), 2026-10-10:"))
        }
    }
}
