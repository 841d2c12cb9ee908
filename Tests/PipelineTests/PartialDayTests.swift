import Foundation
import Pipeline
import Snapshot
import SourceAdapters
import Synchronization
import Testing
import TestSupport

/// One part of a day that cannot be read (a DineOnCampus location, a Nutrislice menu type) costs
/// neither the other parts of a new day nor a day already published; a day none of whose parts
/// was read fails, as before, rather than being published empty. A day published in part is
/// asked again whole on the nights after, published again when it lacks no more than before (a
/// period of a location it lacked whole counts as less), and kept as published once history
/// keeps it or a subset run replays it. Over 127.0.0.1, with the real answers
/// `VendorPlatformsPipelineTests` serves.
@Suite struct PartialDayTests {
    static let day = "2019-07-08"
    static let next = "2019-07-09"

    /// A night of the two locations' pipeline over `server`, its dates `from`...`to`, `today`
    /// the first; `lines` added to the pipeline (`history:`), `partitions` a subset run's.
    private func run(_ workspace: URL, server: TestHTTPServer, from: String = day, to: String = day,
                     lines: String = "", partitions: [String]? = nil) async throws -> RunReport {
        try await QuietNight.run("""
            pipeline: campus
            licence: test
            sources:
              - name: campus
                adapter: dineoncampus
                location: \(server.url(""))
                dates: {from: \(from), to: \(to)}
                locations:
                  - {id: loc1, name: Wadsworth}
                  - {id: loc2, name: McNair}
            checks: {min_menu_items: 1}
            fetch: {delay_ms: 0, retries: 0, timeout_seconds: 10}
            \(lines)
            """, workspace: workspace, today: from, partitions: partitions)
    }

    /// A night that publishes, with no partition stale or failed.
    private func publishedNight(_ workspace: URL, server: TestHTTPServer,
                                sourceLocation: Testing.SourceLocation = #_sourceLocation) async throws -> RunReport {
        let report = try await run(workspace, server: server)
        #expect(report.published && report.failedPartitions.isEmpty, sourceLocation: sourceLocation)
        #expect(report.stalePartitions.isEmpty, "\(report.stalePartitions.map { $0.message ?? "" })",
                sourceLocation: sourceLocation)
        return report
    }

    /// Meal, restaurant and item count of the latest snapshot's day.
    private func served(in workspace: URL) throws -> [[SQLValue]] {
        try latestRows("SELECT meal, restaurant, count(*) FROM v_menu GROUP BY 1, 2 ORDER BY 1, 2", in: workspace)
    }

    private func latestRows(_ sql: String, in workspace: URL) throws -> [[SQLValue]] {
        let latest = try #require(SnapshotStore(directory: workspace.appendingPathComponent("snapshots")).latest(pipeline: "campus"))
        return try QueryResult.run(sql, on: latest).rows
    }

    /// A DineOnCampus location's menu on `date` (its first answer), or one period's.
    private static func path(_ location: String, period: String? = nil, on date: String = day) -> String {
        "/v1/location/\(location)/periods" + (period.map { "/\($0)" } ?? "") + "?platform=0&date=\(date)"
    }

    /// A server answering each path with `route`'s JSON, and a path `route` has nothing for
    /// with `otherwise`.
    private static func server(otherwise status: Int = 500, _ route: @escaping @Sendable (String) -> Data?) throws
        -> TestHTTPServer {
        try TestHTTPServer { request, _ in
            route(request.path).map { Reply(headers: [("Content-Type", "application/json")], body: $0, keepAlive: true) }
                ?? Reply(status: status, keepAlive: true)
        }
    }

    /// Meal, restaurant and item count of the day with Wadsworth alone, and with both locations,
    /// from the real answers (lunch, 62 items, and dinner, 3).
    static let wadsworthAlone: [[SQLValue]] = [[.text("Dinner"), .text("Wadsworth"), .integer(3)],
                                               [.text("Lunch"), .text("Wadsworth"), .integer(62)]]
    static let bothLocations: [[SQLValue]] = [[.text("Dinner"), .text("McNair"), .integer(3)],
                                              [.text("Dinner"), .text("Wadsworth"), .integer(3)],
                                              [.text("Lunch"), .text("McNair"), .integer(62)],
                                              [.text("Lunch"), .text("Wadsworth"), .integer(62)]]

    /// Both locations answering with the real answers on `next`; on `day`, Wadsworth alone,
    /// McNair's menu an HTTP 500 until `mcNairBack` says otherwise. Wadsworth's dinner on `next`
    /// loses an item while `nextChanged` says so.
    private static func mcNairMissingOnTheFirstDay(mcNairBack: @escaping @Sendable () -> Bool = { false },
                                                   nextChanged: @escaping @Sendable () -> Bool = { false }) throws
        -> TestHTTPServer {
        let answers = try VendorPlatformsPipelineTests.dineOnCampusAnswers()
        let shorterDinner = try lastItemLeftOut(of: answers.dinner)
        let dinner = VendorPlatformsPipelineTests.dinnerPeriod
        return try server { path in
            switch path {
            case Self.path("loc2"): mcNairBack() ? answers.lunch : nil
            case Self.path("loc1", period: dinner, on: next): nextChanged() ? shorterDinner : answers.dinner
            case Self.path("loc1"), Self.path("loc1", on: next), Self.path("loc2", on: next): answers.lunch
            case Self.path("loc1", period: dinner), Self.path("loc2", period: dinner),
                 Self.path("loc2", period: dinner, on: next): answers.dinner
            default: nil
            }
        }
    }

    /// Date, restaurant and item count of `mcNairMissingOnTheFirstDay`'s two days as published.
    static let twoDaysServed: [[SQLValue]] = [[.text(day), .text("Wadsworth"), .integer(65)],
                                             [.text(next), .text("McNair"), .integer(65)],
                                             [.text(next), .text("Wadsworth"), .integer(65)]]
    static let servedByDate = "SELECT date, restaurant, count(*) FROM v_menu GROUP BY 1, 2 ORDER BY 1, 2"

    /// Two DineOnCampus locations answer with the real 2019 answer (lunch, 62 items, and dinner,
    /// 3); McNair's answer is an HTTP 500 on the first night and refused (`"status": "error"`) on
    /// the third.
    @Test func aLocationThatErrsIsLeftOutOfANewDayAndAPublishedDayKeepsItsLastGoodVersion() async throws {
        let workspace = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: workspace) }
        let answers = try VendorPlatformsPipelineTests.dineOnCampusAnswers()
        let refused = Data(#"{"status":"error","msg":"Location is not available"}"#.utf8)
        /// McNair's first answer: nil answers, else the status of the refusal.
        let mcNairFails = Mutex<Int?>(500)
        let dinner = VendorPlatformsPipelineTests.dinnerPeriod
        let server = try Self.server { path in
            switch path {
            case Self.path("loc1"): answers.lunch
            case Self.path("loc2"):
                switch mcNairFails.withLock({ $0 }) {
                case nil: answers.lunch
                case 500: nil
                default: refused
                }
            case Self.path("loc1", period: dinner), Self.path("loc2", period: dinner): answers.dinner
            default: nil
            }
        }
        defer { server.stop() }

        // A day never published: Wadsworth's menus are published, McNair's refusal said.
        let first = try await run(workspace, server: server)
        #expect(first.published, "\(first.manifest.partitions.map { $0.message ?? "" })")
        #expect(first.failedPartitions.isEmpty)
        #expect(try served(in: workspace) == Self.wadsworthAlone)
        let said = first.manifest.checks.filter { $0.name == "partition_warning" }.map(\.message)
        #expect(said.contains {
            $0.hasPrefix("\(Self.day): McNair's menu (") && $0.contains("500")
                && $0.hasSuffix("not read: the rest is published without it (the partition has no last good version to keep instead)")
        }, "\(said)")

        // McNair answers: the day is asked again, though no document it read has changed, and is whole.
        mcNairFails.withLock { $0 = nil }
        let second = try await run(workspace, server: server)
        #expect(second.published)
        #expect(try served(in: workspace) == Self.bothLocations)

        // McNair refused again: the day published whole keeps that version, stale, and says why.
        mcNairFails.withLock { $0 = 200 }
        let third = try await run(workspace, server: server)
        #expect(third.failedPartitions.isEmpty)
        #expect(third.stalePartitions.count == 1)
        let stale = try #require(third.stalePartitions.first)
        #expect(stale.message?.contains("McNair's menu (") == true
                && stale.message?.contains("the API answered status \"error\": Location is not available") == true
                && stale.message?.contains(", not read") == true,
                "\(stale.message ?? "")")
        #expect(try served(in: workspace) == Self.bothLocations)
    }

    /// McNair's answer is an HTTP 500 on two nights in a row, while Wadsworth's dinner loses an
    /// item on the second: the day published without McNair is no worse for lacking it again, so
    /// the second night publishes Wadsworth's new dinner rather than keeping the first night's
    /// menus, stale, for as long as McNair errs. McNair answers on the third night.
    @Test func aPartMissingNightAfterNightDoesNotHoldTheOthersAtTheirFirstVersion() async throws {
        let workspace = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: workspace) }
        let answers = try VendorPlatformsPipelineTests.dineOnCampusAnswers()
        let shorterDinner = try Self.lastItemLeftOut(of: answers.dinner)
        let night = Mutex(1)
        let dinner = VendorPlatformsPipelineTests.dinnerPeriod
        let server = try Self.server { path in
            let tonight = night.withLock { $0 }
            return switch path {
            case Self.path("loc1"): answers.lunch
            case Self.path("loc1", period: dinner): tonight == 1 ? answers.dinner : shorterDinner
            case Self.path("loc2"): tonight == 3 ? answers.lunch : nil
            case Self.path("loc2", period: dinner): answers.dinner
            default: nil
            }
        }
        defer { server.stop() }

        _ = try await publishedNight(workspace, server: server)
        #expect(try served(in: workspace) == Self.wadsworthAlone)

        night.withLock { $0 = 2 }
        let second = try await publishedNight(workspace, server: server)
        #expect(try served(in: workspace) == [[.text("Dinner"), .text("Wadsworth"), .integer(2)],
                                               [.text("Lunch"), .text("Wadsworth"), .integer(62)]])
        let said = second.manifest.checks.filter { $0.name == "partition_warning" }.map(\.message)
        #expect(said.contains {
            $0.hasPrefix("\(Self.day): McNair's menu (") && $0.contains("500")
                && $0.hasSuffix("not read: the rest is published without it (its last good version lacked it too)")
        }, "\(said)")

        night.withLock { $0 = 3 }
        let third = try await run(workspace, server: server)
        #expect(third.published && third.stalePartitions.isEmpty)
        #expect(try served(in: workspace) == [[.text("Dinner"), .text("McNair"), .integer(3)],
                                               [.text("Dinner"), .text("Wadsworth"), .integer(2)],
                                               [.text("Lunch"), .text("McNair"), .integer(62)],
                                               [.text("Lunch"), .text("Wadsworth"), .integer(62)]])
    }

    /// McNair's answer is an HTTP 500 on the first night; on the second it answers, with its
    /// lunch, but its dinner period is an HTTP 500: a version lacking McNair's dinner alone is
    /// better than one lacking all of McNair, so it is published rather than refused; on the
    /// third McNair is an HTTP 500 again, which would lose its lunch, and the second night's
    /// version is kept; on the fourth every answer comes.
    @Test func aLocationBackWithoutOnePeriodIsPublishedWithItsOthers() async throws {
        let workspace = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: workspace) }
        let answers = try VendorPlatformsPipelineTests.dineOnCampusAnswers()
        let night = Mutex(1)
        let dinner = VendorPlatformsPipelineTests.dinnerPeriod
        let server = try Self.server { path in
            let tonight = night.withLock { $0 }
            return switch path {
            case Self.path("loc1"): answers.lunch
            case Self.path("loc1", period: dinner): answers.dinner
            case Self.path("loc2"): [2, 4].contains(tonight) ? answers.lunch : nil
            case Self.path("loc2", period: dinner): tonight == 4 ? answers.dinner : nil
            default: nil
            }
        }
        defer { server.stop() }
        let withMcNairsLunch: [[SQLValue]] = [[.text("Dinner"), .text("Wadsworth"), .integer(3)],
                                              [.text("Lunch"), .text("McNair"), .integer(62)],
                                              [.text("Lunch"), .text("Wadsworth"), .integer(62)]]

        _ = try await publishedNight(workspace, server: server)
        #expect(try served(in: workspace) == Self.wadsworthAlone)

        night.withLock { $0 = 2 }
        let second = try await publishedNight(workspace, server: server)
        #expect(try served(in: workspace) == withMcNairsLunch)
        let said = second.manifest.checks.filter { $0.name == "partition_warning" }.map(\.message)
        #expect(said.contains {
            $0.hasPrefix("\(Self.day): McNair's Dinner menu (") && $0.contains("500")
                && $0.hasSuffix("not read: the rest is published without it "
                                + "(its last good version lacked all of \(Self.day): McNair's menu)")
        }, "\(said)")

        night.withLock { $0 = 3 }
        let third = try await run(workspace, server: server)
        #expect(third.failedPartitions.isEmpty)
        let stale = try #require(third.stalePartitions.first)
        #expect(stale.message?.contains("\(Self.day): McNair's menu (") == true, "\(stale.message ?? "")")
        #expect(try served(in: workspace) == withMcNairsLunch)

        night.withLock { $0 = 4 }
        _ = try await publishedNight(workspace, server: server)
        #expect(try served(in: workspace) == Self.bothLocations)
    }

    /// A day published without McNair (HTTP 500) that `history:` keeps once the run's dates have
    /// moved past it is kept as published, not carried as stale every night after. Its first
    /// replay asks the source for McNair's menu (a replay reads what the raw store lacks from the
    /// source): answering again (`mcNairBack`), it is kept from then on, as the ledger records
    /// it. Either way the night after finds everything as it was and asks nothing of the day.
    @Test(arguments: [false, true])
    func aDayPublishedInPartThatHistoryKeepsIsNeitherStaleNorAskedAgain(mcNairBack: Bool) async throws {
        let workspace = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: workspace) }
        let back = Mutex(false)
        let server = try Self.mcNairMissingOnTheFirstDay { back.withLock { $0 } }
        defer { server.stop() }
        let history = "history: {keep: all}"

        let first = try await run(workspace, server: server, lines: history)
        #expect(first.published && first.stalePartitions.isEmpty)
        back.withLock { $0 = mcNairBack }
        let second = try await run(workspace, server: server, from: Self.next, to: Self.next, lines: history)
        #expect(second.published && second.failedPartitions.isEmpty)
        #expect(second.stalePartitions.isEmpty, "\(second.stalePartitions.map { $0.message ?? "" })")
        let mcNairOnTheDay: [[SQLValue]] = mcNairBack ? [[.text(Self.day), .text("McNair"), .integer(65)]] : []
        #expect(try latestRows(Self.servedByDate, in: workspace) == mcNairOnTheDay + Self.twoDaysServed)
        let mcNair = "/v1/location/loc2/periods?platform=0&date=\(Self.day)"
        let asked = server.requests(to: mcNair).count
        let third = try await run(workspace, server: server, from: Self.next, to: Self.next, lines: history)
        #expect(third.manifest.partitions.allSatisfy { $0.status == .unchanged }, "\(third.manifest.partitions)")
        #expect(server.requests(to: mcNair).count == asked)
    }

    /// A day published in part that history replays from the parse cache (on a night another day
    /// changed) is still one published in part: once the run's dates hold it again, it is asked
    /// for again, and McNair's menu, back, is published.
    @Test func aDayPublishedInPartReplayedFromTheParseCacheIsAskedAgainLater() async throws {
        let workspace = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: workspace) }
        let back = Mutex(false)
        let nextChanged = Mutex(false)
        let server = try Self.mcNairMissingOnTheFirstDay(mcNairBack: { back.withLock { $0 } },
                                                         nextChanged: { nextChanged.withLock { $0 } })
        defer { server.stop() }
        let history = "history: {keep: all}"

        _ = try await run(workspace, server: server, lines: history)
        _ = try await run(workspace, server: server, from: Self.next, to: Self.next, lines: history)
        nextChanged.withLock { $0 = true }
        let third = try await run(workspace, server: server, from: Self.next, to: Self.next, lines: history)
        let parse = third.manifest.stages.first { $0.name == .parse }?.counts ?? [:]
        #expect(third.published && parse["partitions_from_cache"] == 1, "\(parse)")
        back.withLock { $0 = true }
        let fourth = try await run(workspace, server: server, to: Self.next, lines: history)
        #expect(fourth.published, "\(fourth.manifest.status)")
        #expect(try latestRows(Self.servedByDate, in: workspace).first == [.text(Self.day), .text("McNair"), .integer(65)])
    }

    /// A subset run (`--partition`) of another day after a night that published a day without
    /// McNair (HTTP 500) replays that day as published and publishes the night, rather than
    /// waiting for a day that was harvested as if it never had been.
    @Test func aSubsetRunReplaysADayPublishedInPartAndPublishes() async throws {
        let workspace = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: workspace) }
        let server = try Self.mcNairMissingOnTheFirstDay()
        defer { server.stop() }

        let whole = try await run(workspace, server: server, to: Self.next)
        #expect(whole.published && whole.failedPartitions.isEmpty)
        let subset = try await run(workspace, server: server, to: Self.next, partitions: ["campus/\(Self.next)"])
        #expect(subset.manifest.status == .published, "\(subset.manifest.status)")
        #expect(subset.stalePartitions.isEmpty && subset.failedPartitions.isEmpty)
        #expect(try latestRows(Self.servedByDate, in: workspace) == Self.twoDaysServed)
    }

    /// A DineOnCampus answer with the last item of its period's first category left out.
    private static func lastItemLeftOut(of answer: Data) throws -> Data {
        var top = try #require(try JSONSerialization.jsonObject(with: answer) as? [String: Any])
        var menu = try #require(top["menu"] as? [String: Any])
        var period = try #require(menu["periods"] as? [String: Any])
        var categories = try #require(period["categories"] as? [[String: Any]])
        var items = try #require(categories.first?["items"] as? [[String: Any]])
        items.removeLast()
        categories[0]["items"] = items
        period["categories"] = categories
        menu["periods"] = period
        top["menu"] = menu
        return try JSONSerialization.data(withJSONObject: top)
    }

    /// Lowell Market's breakfast week is the real one (12 items on 2026-03-23); its lunch week
    /// answers 500. Then both answer 500: the day fails and nothing is published.
    @Test func aMenuTypeThatErrsIsLeftOutAndADayWithNothingReadFails() async throws {
        let workspace = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: workspace) }
        let week = try VendorPlatformsPipelineTests.week()
        let breakfastAnswers = Mutex(true)
        let server = try TestHTTPServer { request, _ in
            request.path == VendorPlatformsPipelineTests.weekPath && breakfastAnswers.withLock({ $0 })
                ? Reply(headers: [("Content-Type", "application/json")], body: week, keepAlive: true)
                : Reply(status: 500, keepAlive: true)
        }
        defer { server.stop() }
        func night(in workspace: URL) async throws -> RunReport {
            try await QuietNight.run("""
                pipeline: wisc
                licence: test
                sources:
                  - name: wisc
                    adapter: nutrislice
                    location: \(server.url(""))
                    school: lowell-market
                    menu_types: [breakfast, lunch]
                    restaurant: Lowell Market
                    dates: {from: 2026-03-23, to: 2026-03-23}
                checks: {min_menu_items: 1}
                fetch: {delay_ms: 0, retries: 0, timeout_seconds: 10}
                """, workspace: workspace, today: "2026-03-23")
        }

        let first = try await night(in: workspace)
        #expect(first.published && first.failedPartitions.isEmpty, "\(first.manifest.partitions.map { $0.message ?? "" })")
        let latest = try #require(SnapshotStore(directory: workspace.appendingPathComponent("snapshots")).latest(pipeline: "wisc"))
        #expect(try QueryResult.run("SELECT meal, restaurant, count(*) FROM v_menu GROUP BY 1, 2", on: latest).rows
                == [[.text("Breakfast"), .text("Lowell Market"), .integer(12)]])
        let said = first.manifest.checks.filter { $0.name == "partition_warning" }.map(\.message)
        #expect(said.contains { $0.hasPrefix("2026-03-23: Lowell Market's Lunch menu (") && $0.contains("500") }, "\(said)")

        breakfastAnswers.withLock { $0 = false }
        let empty = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: empty) }
        let nothing = try await night(in: empty)
        #expect(!nothing.published)
        #expect(nothing.failedPartitions.map(\.key) == ["2026-03-23"])
    }
}
