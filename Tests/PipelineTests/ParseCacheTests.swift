import Basics
import FoodModel
import Foundation
import Logging
@testable import Pipeline
import RunReporting
import Snapshot
import Testing
import TestSupport

/// The parse cache: a night in which one day changed parses that day, takes the others from
/// the cache, and publishes exactly what a full rebuild publishes.
@Suite struct ParseCacheTests {
    private func run(_ spec: URL, workspace: URL, force: Bool = false) async throws -> RunReport {
        let runner = PipelineRunner(
            spec: try SpecReader.read(spec),
            options: RunOptions(workspace: Workspace(root: workspace), today: try #require(ServiceDate("2026-10-12")),
                                force: force, arguments: ["run", "sample.yml"]),
            observer: SilentObserver(), logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }))
        return try await runner.run()
    }

    private func parseCounts(_ report: RunReport) -> [String: Int] {
        report.manifest.stages.first { $0.name == .parse }?.counts ?? [:]
    }

    /// Every data table of both snapshots, rows sorted: ids are in the rows.
    private func expectSameRows(_ first: URL, _ second: URL) throws {
        for table in SnapshotSchema.dataTables {
            let sorted = { (file: URL) in try QueryResult.run("SELECT * FROM \(table)", on: file).rows.map { "\($0)" }.sorted() }
            #expect(try sorted(first) == sorted(second), "\(table)")
        }
    }

    /// Removes the `<li class="menu-item">` of the item linking to `recipe` from a day's page.
    private func removeItem(linking recipe: String, from page: URL) throws {
        var text = try String(contentsOf: page, encoding: .utf8)
        let link = try #require(text.range(of: "Recipes/\(recipe)/"))
        let start = try #require(text.range(of: "<li class=\"menu-item\">", options: .backwards,
                                            range: text.startIndex..<link.lowerBound))
        let end = try #require(text.range(of: "</li>", range: link.upperBound..<text.endIndex))
        text.removeSubrange(start.lowerBound..<end.upperBound)
        try Data(text.utf8).write(to: page)
    }

    private func snapshot(_ report: RunReport) throws -> URL {
        URL(fileURLWithPath: try #require(report.snapshotPath))
    }

    /// The sample has five partitions: three days, the hours page and the recipe dump, which is
    /// not cached (`MealDBDumpHarvester.cachesPartitions`). One day's page loses an item: that
    /// day and the dump are parsed, the other two days and the hours page come from the cache.
    @Test func aNightWithOneChangedDayParsesThatDayAlone() async throws {
        let workspace = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: workspace) }
        let (spec, site) = try SampleCopy.make(in: workspace)
        let first = try await run(spec, workspace: workspace)
        #expect(parseCounts(first)["partitions_from_cache"] == nil)

        try removeItem(linking: "140751", from: site.appendingPathComponent("Menus/2026-10-11.html"))
        let second = try await run(spec, workspace: workspace)
        #expect(parseCounts(second)["partitions_from_cache"] == 3)
        // 124 items in the sample (SampleData/README.md), one removed.
        #expect(second.manifest.rowCounts["menu_item"] == 123)

        let rebuilt = try await run(spec, workspace: workspace, force: true)
        #expect(parseCounts(rebuilt)["partitions_from_cache"] == nil)
        try expectSameRows(try snapshot(second), try snapshot(rebuilt))
    }

    /// Once the copied site's files have been still past the settling time (`FileStamp`), a night
    /// compares them by their stamps, unread, and counts them revalidated; a page then rewritten
    /// with as many bytes is read all the same, and its new name is published.
    @Test func filesStillAsStoredAreComparedUnreadAndARewrittenOneIsRead() async throws {
        let workspace = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: workspace) }
        let (spec, site) = try SampleCopy.make(in: workspace)
        try await Task.sleep(for: .seconds(5))
        let first = try await run(spec, workspace: workspace)
        #expect(first.published)
        func fetchCounts(_ report: RunReport) -> [String: Int] {
            report.manifest.stages.first { $0.name == .fetch }?.counts ?? [:]
        }

        // Three menu pages, the hours page and the dump's two files: the documents that can change.
        let unchanged = try await run(spec, workspace: workspace)
        #expect(!unchanged.published)
        #expect(fetchCounts(unchanged)["documents_revalidated"] == 6, "\(fetchCounts(unchanged))")
        #expect(fetchCounts(unchanged)["documents_refetched"] == 0, "\(fetchCounts(unchanged))")
        let summary = RunWording.summary(unchanged)
        #expect(summary.contains("6 revalidated (304 or file unchanged), 0 refetched (200)"), "\(summary)")
        #expect(summary.contains("6 compared again)"), "\(summary)")

        // One letter for another: the page keeps its size, only its bytes and times change.
        let page = site.appendingPathComponent("Menus/2026-10-11.html")
        let html = try String(contentsOf: page, encoding: .utf8)
        #expect(html.components(separatedBy: ">Quinoa Tabbouleh<").count == 2)
        let edited = html.replacingOccurrences(of: ">Quinoa Tabbouleh<", with: ">Quinoa Tabboulex<")
        #expect(edited.utf8.count == html.utf8.count)
        let handle = try FileHandle(forWritingTo: page)
        try handle.write(contentsOf: Data(edited.utf8))
        try handle.close()
        let second = try await run(spec, workspace: workspace)
        #expect(second.published)
        #expect(fetchCounts(second)["documents_revalidated"] == 5, "\(fetchCounts(second))")
        #expect(fetchCounts(second)["documents_refetched"] == 1, "\(fetchCounts(second))")
        let names = try QueryResult.run("""
            SELECT DISTINCT menu_item.name FROM menu_item JOIN meal ON meal.id = menu_item.meal_id
            JOIN service_day ON service_day.id = meal.service_day_id
            WHERE date = '2026-10-11' AND menu_item.name LIKE 'Quinoa Tab%'
            """, on: try snapshot(second)).rows
        #expect(names == [[.text("Quinoa Tabboulex")]])
    }

    /// Korean BBQ Tofu Bowl (140751) is served on all three days; whichever day read its page
    /// first loses it. The two other days come from the cache without it (another day read it
    /// when they were parsed), so one of them is read again for it: the food keeps its label.
    @Test func aFoodThatOnlyAChangedDayHadReadIsReadForTheCachedDays() async throws {
        let workspace = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: workspace) }
        let (spec, site) = try SampleCopy.make(in: workspace)
        _ = try await run(spec, workspace: workspace)

        let ledger = try StateLedger(url: Workspace(root: workspace).ledger(pipeline: "sample"))
        let days = ["2026-10-10", "2026-10-11", "2026-10-12"]
        var readers: [String] = []
        for day in days {
            let documents = try #require(try ledger.states(source: "ucla-menu")[day]).documents
            if documents.contains(where: { $0.url.hasSuffix("/Recipes/140751/1") }) { readers.append(day) }
        }
        #expect(readers.count == 1, "one day reads a food's page in a run: \(readers)")
        let reader = try #require(readers.first)
        let page = try #require(try ledger.states(source: "ucla-menu")[reader]?.documents
            .first { $0.url.hasSuffix("/Recipes/140751/1") }).url
        let before = try Dictionary(uniqueKeysWithValues: days.map { day in
            (day, Set(try #require(try ledger.states(source: "ucla-menu")[day]).documents.map(\.url)))
        })
        try removeItem(linking: "140751", from: site.appendingPathComponent("Menus/\(reader).html"))

        let second = try await run(spec, workspace: workspace)
        #expect(parseCounts(second)["partitions_from_cache"] == 3)
        #expect(parseCounts(second)["cached_partitions_read_again"] == 1)
        // Read tonight, not carried from the latest snapshot as a label lost tonight.
        #expect(second.stale.isEmpty)
        let file = try snapshot(second)
        // Its page (Recipes/140751/1.html) prints 435 calories and 1046.3mg of sodium.
        let label = try QueryResult.run(
            "SELECT calories, has_page, (SELECT amount FROM food_nutrient WHERE food_id = food.id "
                + "AND nutrient_key = 'sodium') FROM food WHERE id = 'ucla-menu:140751'", on: file).rows
        #expect(label == [[.real(435), .integer(1), .real(1046.3)]])

        // The ledger now lists the page under the day read again for it, beside every page that
        // day read before, so the next night's key for that day includes it.
        let relisted = try days.filter { day in
            try #require(try ledger.states(source: "ucla-menu")[day]).documents
                .contains { $0.url.hasSuffix("/Recipes/140751/1") }
        }
        #expect(relisted.count == 1 && !relisted.contains(reader))
        for day in relisted {
            let after = Set(try #require(try ledger.states(source: "ucla-menu")[day]).documents.map(\.url))
            #expect(after == before[day, default: []].union([page]))
        }

        // Checked last: a forced rebuild reads every page again and rewrites the ledger.
        let rebuilt = try await run(spec, workspace: workspace, force: true)
        try expectSameRows(file, try snapshot(rebuilt))
    }

    /// The cache keeps days as the places file named their restaurants: once the file gives
    /// Covel another name, no cached day is taken with the old one. The sample's pages print
    /// "Covel" on every day, and the file's entry for it is `Epicuria at Covel`.
    @Test func aPlacesFileThatRenamesAHallLeavesNoCachedDayWithTheOldName() async throws {
        let workspace = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: workspace) }
        let (spec, site) = try SampleCopy.make(in: workspace)
        let places = workspace.appendingPathComponent("Pipelines/places")
        try FileManager.default.removeItem(at: places)
        try FileManager.default.copyItem(at: Paths.pipelines.appendingPathComponent("places"), to: places)
        let first = try await run(spec, workspace: workspace)
        let halls = "SELECT DISTINCT name FROM restaurant ORDER BY name"
        #expect(try QueryResult.run(halls, on: try snapshot(first)).rows.contains([.text("Epicuria at Covel")]))

        let file = places.appendingPathComponent("ucla.yml")
        let text = try String(contentsOf: file, encoding: .utf8)
        #expect(text.components(separatedBy: "- name: Epicuria at Covel\n").count == 2)
        try Data(text.replacingOccurrences(of: "- name: Epicuria at Covel\n", with: "- name: Covel Commons\n").utf8)
            .write(to: file)
        try removeItem(linking: "140751", from: site.appendingPathComponent("Menus/2026-10-11.html"))
        let second = try await run(spec, workspace: workspace)
        #expect(parseCounts(second)["partitions_from_cache"] == nil)
        let renamed = try snapshot(second)
        let names = try QueryResult.run(halls, on: renamed).rows
        #expect(names.contains([.text("Covel Commons")]) && !names.contains([.text("Epicuria at Covel")]), "\(names)")
        let datesAtCovel = try QueryResult.run("""
            SELECT DISTINCT d.date FROM menu_item i JOIN meal m ON m.id = i.meal_id
            JOIN service_day d ON d.id = m.service_day_id JOIN section s ON s.id = i.section_id
            JOIN restaurant r ON r.id = s.restaurant_id WHERE r.name = 'Covel Commons' ORDER BY d.date
            """, on: renamed).rows
        #expect(datesAtCovel == [[.text("2026-10-10")], [.text("2026-10-11")], [.text("2026-10-12")]])

        let rebuilt = try await run(spec, workspace: workspace, force: true)
        try expectSameRows(renamed, try snapshot(rebuilt))
    }

    /// A cache in `folder` holding an entry under each key, each last marked used on its date.
    private func cache(in folder: URL, marked: [String: Date]) throws -> ParseCache {
        let cache = ParseCache(folder: folder)
        for key in marked.keys { cache.keep(Data("a day's parse".utf8), under: key) }
        cache.flush()
        for (key, date) in marked {
            try FileManager.default.setAttributes([.modificationDate: date],
                                                  ofItemAtPath: folder.appendingPathComponent("\(key).entry").path)
        }
        return cache
    }

    /// The parse cache's entries, not the report page's day counts beside them.
    private func entries(in folder: URL) throws -> [URL] {
        try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "entry" }
    }

    /// An entry's first line (the sha256 and length of its head), its head and the bytes after
    /// it; nil for a file too short to hold them.
    private func parts(of entry: URL) throws -> (line: String, head: Data, rest: Data)? {
        let bytes = try Data(contentsOf: entry)
        guard let newline = bytes.firstIndex(of: UInt8(ascii: "\n")) else { return nil }
        let line = String(decoding: bytes[..<newline], as: UTF8.self)
        guard let length = line.split(separator: " ").last.flatMap({ Int($0) }), length >= 0,
              newline + 1 + length <= bytes.count else { return nil }
        let head = bytes[(newline + 1)..<(newline + 1 + length)]
        return (line, Data(head), Data(bytes[(newline + 1 + length)...]))
    }

    /// `bytes` with the last lower-case letter before "z" made the next one: a letter of a name
    /// near the end, every length intact, a different value.
    private func withALetterChanged(_ bytes: Data) throws -> Data {
        var changed = bytes
        let letter = try #require(changed.lastIndex { (UInt8(ascii: "a")...UInt8(ascii: "y")).contains($0) })
        changed[letter] += 1
        return changed
    }

    /// Whether the entry's head matches its first line and each of its days' bytes its sha256.
    private func isSound(_ entry: URL, in cache: ParseCache) throws -> Bool {
        guard let (line, head, _) = try parts(of: entry),
              line == "\(sha256Hex(head)) \(head.count)",
              let read = cache.entry(entry.deletingPathExtension().lastPathComponent) else { return false }
        return read.prepared.days.allSatisfy { (try? $0.rows.checked()) != nil }
    }

    /// An entry whose head is cut short or has a flipped byte is removed and its partition parsed
    /// again.
    @Test func anEntryWithADamagedHeadIsParsedAgainNeverUsed() async throws {
        let workspace = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: workspace) }
        let (spec, site) = try SampleCopy.make(in: workspace)
        _ = try await run(spec, workspace: workspace)
        let folder = Workspace(root: workspace).parseCache(pipeline: "sample")
        let entries = try entries(in: folder)
        #expect(entries.count == 4)
        for (index, entry) in entries.enumerated() {
            let (line, head, rest) = try #require(try parts(of: entry))
            // Cut short within the head, or a letter of it changed with the days' bytes left after it.
            let damaged = index % 2 == 0 ? head.prefix(head.count / 2) : try withALetterChanged(head) + rest
            try (Data((line + "\n").utf8) + damaged).write(to: entry)
        }
        try removeItem(linking: "140751", from: site.appendingPathComponent("Menus/2026-10-11.html"))
        let second = try await run(spec, workspace: workspace)
        #expect(parseCounts(second)["partitions_from_cache"] == nil)
        // Every partition parsed again stored a sound entry; a damaged one is left only under
        // the changed day's old key, which no run asks for now (the sweep removes it in a week).
        let cache = ParseCache(folder: folder)
        let now = try self.entries(in: folder)
        let sound = try now.filter { try isSound($0, in: cache) }
        #expect(now.count - sound.count <= 1 && sound.count == 4)
        let rebuilt = try await run(spec, workspace: workspace, force: true)
        try expectSameRows(try snapshot(second), try snapshot(rebuilt))
    }

    /// A day's bytes are checked only when the day is written: damaged, they are never read on
    /// a night that keeps the day's rows; on a night that writes it, the entry is removed and its
    /// partition parsed again, and what is published is what a full rebuild publishes.
    @Test func aDaysDamagedBytesAreFoundWhenTheDayIsWritten() async throws {
        let workspace = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: workspace) }
        let (spec, site) = try SampleCopy.make(in: workspace)
        _ = try await run(spec, workspace: workspace)
        let folder = Workspace(root: workspace).parseCache(pipeline: "sample")
        // The three days' entries hold bytes after their heads; the hours page's holds no day.
        var damaged: [URL] = []
        for entry in try entries(in: folder) {
            let (line, head, rest) = try #require(try parts(of: entry))
            guard !rest.isEmpty else { continue }
            try (Data((line + "\n").utf8) + head + withALetterChanged(rest)).write(to: entry)
            damaged.append(entry)
        }
        #expect(damaged.count == 3)

        // One day changed: the two others keep their rows, read no further than their heads.
        try removeItem(linking: "140751", from: site.appendingPathComponent("Menus/2026-10-11.html"))
        let kept = try await run(spec, workspace: workspace)
        #expect(parseCounts(kept)["partitions_from_cache"] == 3)
        #expect(kept.manifest.rowCounts["menu_item"] == 123)
        let cache = ParseCache(folder: folder)
        let stillDamaged = try damaged.filter { entry in
            FileManager.default.fileExists(atPath: entry.path) ? try !isSound(entry, in: cache) : false
        }
        // The two kept days' entries, used as they are, and the changed day's, no longer asked for.
        #expect(stillDamaged.count == 3)

        // Without a snapshot to continue every day is written: the two are parsed again, the
        // changed day's new entry and the hours page's are used.
        try FileManager.default.removeItem(at: Workspace(root: workspace).snapshots)
        let written = try await run(spec, workspace: workspace)
        #expect(parseCounts(written)["partitions_from_cache"] == 2)
        #expect(written.manifest.rowCounts["menu_item"] == 123)
        let now = try entries(in: folder)
        #expect(try now.filter { try isSound($0, in: cache) }.count == 4)
        let rebuilt = try await run(spec, workspace: workspace, force: true)
        try expectSameRows(try snapshot(written), try snapshot(rebuilt))
    }

    /// Taking an entry reads its head alone: a day's bytes are read from the file when the day is
    /// checked (before it is written), as the file holds them then.
    @Test func anEntrysDayIsReadWhenItIsCheckedNotWithTheEntry() async throws {
        let workspace = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: workspace) }
        let (spec, _) = try SampleCopy.make(in: workspace)
        _ = try await run(spec, workspace: workspace)
        let folder = Workspace(root: workspace).parseCache(pipeline: "sample")
        // A day's entry: bytes after its head (the hours page's holds none).
        var dayEntry: (url: URL, line: String, head: Data, rest: Data)?
        for entry in try entries(in: folder) {
            if let (line, head, rest) = try parts(of: entry), !rest.isEmpty { dayEntry = (entry, line, head, rest) }
        }
        let (entry, line, head, rest) = try #require(dayEntry)
        let taken = try #require(ParseCache(folder: folder).entry(entry.deletingPathExtension().lastPathComponent))
        #expect(taken.prepared.days.count == 1)
        let day = try #require(taken.prepared.days.first).rows
        #expect(day.awaitsCheck)

        // The day's bytes change on disk after the entry was taken: its check reads them then.
        try (Data((line + "\n").utf8) + head + withALetterChanged(rest)).write(to: entry)
        #expect(throws: Failure.self) { try day.checked() }
        // Put back as they were kept, they read and check, and make the day.
        try (Data((line + "\n").utf8) + head + rest).write(to: entry)
        #expect(try !day.checked().awaitsCheck)
        #expect(try day.day().date == day.date)
        #expect(try day.day().menuItemCount > 0)
    }

    /// Something in an entry's place that is not a regular file (a named pipe) is not waited on:
    /// the entry is missed, and removed, at once.
    @Test func aNamedPipeInAnEntrysPlaceIsMissedAtOnce() throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = ParseCache(folder: folder)
        let key = String(repeating: "a", count: 64)
        #expect(mkfifo(folder.appendingPathComponent("\(key).entry").path, 0o600) == 0)
        #expect(cache.parsed(key) == nil)
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("\(key).entry").path))
    }

    /// Temporary files of killed runs go at once (those of builds that wrote them among the
    /// entries too); entries go after a week without use. A use is marked every three and a half
    /// days at most, so an entry marked nine days ago may have been used five and a half days
    /// ago and stays; one marked eleven days ago has not been used for a week.
    @Test func theSweepRemovesLeftoversAndEntriesUnusedForAWeek() throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = ParseCache(folder: folder)
        try FileManager.default.createDirectory(at: cache.partialFolder, withIntermediateDirectories: true)
        let now = Date()
        let files = ["fresh.entry": now, "nine-days.entry": now.addingTimeInterval(-9 * 86_400),
                     "eleven-days.entry": now.addingTimeInterval(-11 * 86_400), ".older-build.tmp": now,
                     "partial/killed.tmp": now]
        for (name, modified) in files {
            let file = folder.appendingPathComponent(name)
            try Data("x".utf8).write(to: file)
            try FileManager.default.setAttributes([.modificationDate: modified], ofItemAtPath: file.path)
        }
        cache.sweep(now: now)
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(left == ["fresh.entry", "nine-days.entry", "partial", "swept"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: cache.partialFolder.path).isEmpty)
    }

    /// Entries are looked at once a day: an entry unused for more than a week stays through a
    /// sweep an hour after the last, and goes with one a day after it; a killed run's temporary
    /// file goes at once either way, from the folder of entries being written, which is all a
    /// sweep between two looks lists. A mark from the future (a clock set back) is not trusted.
    @Test func entriesAreLookedAtOnceADayTemporaryFilesEveryRun() throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let now = Date()
        let cache = ParseCache(folder: folder)
        cache.sweep(now: now)
        try FileManager.default.createDirectory(at: cache.partialFolder, withIntermediateDirectories: true)
        let put = { (name: String, modified: Date) in
            let file = folder.appendingPathComponent(name)
            try Data("x".utf8).write(to: file)
            try FileManager.default.setAttributes([.modificationDate: modified], ofItemAtPath: file.path)
        }
        let listed = { try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() }
        try put("old.entry", now.addingTimeInterval(-11 * 86_400))
        try put("partial/killed.tmp", now)
        // An older build's temporary file among the entries is found when they are listed.
        try put(".older-build.tmp", now)
        cache.sweep(now: now.addingTimeInterval(3_600))
        #expect(try listed() == [".older-build.tmp", "old.entry", "partial", "swept"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: cache.partialFolder.path).isEmpty)
        cache.sweep(now: now.addingTimeInterval(86_400))
        #expect(try listed() == ["partial", "swept"])

        try put("old.entry", now.addingTimeInterval(-11 * 86_400))
        cache.sweep(now: now.addingTimeInterval(-3_600))
        #expect(try listed() == ["partial", "swept"])
    }

    /// A read marks an entry used only when its mark is half the kept days old: an entry read
    /// night after night keeps the mark of the night that set it (its inode left alone), one
    /// last marked four days ago is marked now.
    @Test func anEntryIsMarkedUsedEveryFewDaysNotOnEveryRead() throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let now = Date()
        let yesterday = now.addingTimeInterval(-86_400)
        let cache = try cache(in: folder, marked: ["yesterday": yesterday,
                                                   "four-days": now.addingTimeInterval(-4 * 86_400)])
        let marked = { (key: String) in
            try FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent("\(key).entry").path)[
                .modificationDate] as? Date ?? .distantPast
        }
        #expect(cache.parsed("yesterday") == Data("a day's parse".utf8))
        #expect(cache.parsed("four-days") == Data("a day's parse".utf8))
        #expect(abs(try marked("yesterday").timeIntervalSince(yesterday)) < 1)
        #expect(try marked("four-days").timeIntervalSince(now) > -60)
    }

    /// An entry a run reads is used: left unused for more than a week it would go, read it stays.
    @Test func anEntryReadIsKeptByTheSweep() throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let now = Date()
        let elevenDaysAgo = now.addingTimeInterval(-11 * 86_400)
        let cache = try cache(in: folder, marked: ["read": elevenDaysAgo, "unread": elevenDaysAgo])
        #expect(cache.parsed("read") == Data("a day's parse".utf8))
        cache.sweep(now: now)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
                == ["partial", "read.entry", "swept"])
    }
}
