import Foundation
import Snapshot
import Testing
import TestSupport

/// Ids that a feed gives and that become the addresses of its other documents: UCLA's real
/// menu of 2025-04-07 (`../shared/data/ucla-jamix-2025`) served on 127.0.0.1 with some rows'
/// ids replaced by what the adversarial run sent. UCLA's ids are whole numbers; anything else
/// is reported with its row and left out, never requested and never published.
@Suite struct FeedIdTests {
    static let feed = Paths.sharedData.appendingPathComponent("ucla-jamix-2025")
    static let date = "2025-04-07"

    /// Hostile recipe ids: a climb out of `recipes/`, another recipe's document behind a query
    /// and a fragment (`recipes/1`), a header smuggled after CR/LF, an encoded climb, a climb
    /// back to another recipe. The last is an ingredient id that climbs to another day's menu.
    static let hostileRecipeIds = ["../../x", "1?x=1#y", "1883\r\nX-Injected: yes", "%2e%2e%2fx", "12/../1"]
    static let hostileIngredientId = "../menus/2025-04-08"

    /// The day's file with the first published recipe rows' and ingredient row's ids replaced,
    /// and the names of the rows replaced (by this test's own reading of the file).
    static func hostileMenu() throws -> (body: Data, names: [String: String]) {
        var menus = try #require(try JSONSerialization.jsonObject(
            with: Data(contentsOf: feed.appendingPathComponent("nights/\(date)/menus/\(date).json"))) as? [[String: Any]])
        var recipes = hostileRecipeIds[...]
        var ingredient: String? = hostileIngredientId
        var names: [String: String] = [:]
        for menuIndex in menus.indices {
            var weeks = menus[menuIndex]["menuWeeks"] as? [[String: Any]] ?? []
            for weekIndex in weeks.indices {
                var days = weeks[weekIndex]["menuDays"] as? [[String: Any]] ?? []
                for dayIndex in days.indices where days[dayIndex]["dayDate"] as? String == date {
                    var options = days[dayIndex]["menuDayMealOptions"] as? [[String: Any]] ?? []
                    for optionIndex in options.indices {
                        var rows = options[optionIndex]["menuRows"] as? [[String: Any]] ?? []
                        for rowIndex in rows.indices where (rows[rowIndex]["publish"] as? Bool) ?? true
                            && menus[menuIndex]["menuPublish"] as? Bool ?? true {
                            let row = rows[rowIndex]
                            let name = row["menuRowName"] as? String ?? ""
                            if (row["recipeId"] as? Int ?? 0) > 0, let id = recipes.popFirst() {
                                rows[rowIndex]["recipeId"] = id
                                names[id] = name
                            } else if (row["recipeId"] as? Int ?? 0) == 0, (row["ingredientId"] as? Int ?? 0) > 0,
                                      let id = ingredient {
                                rows[rowIndex]["ingredientId"] = id
                                names[id] = name
                                ingredient = nil
                            }
                        }
                        options[optionIndex]["menuRows"] = rows
                    }
                    days[dayIndex]["menuDayMealOptions"] = options
                }
                weeks[weekIndex]["menuDays"] = days
            }
            menus[menuIndex]["menuWeeks"] = weeks
        }
        #expect(names.count == hostileRecipeIds.count + 1, "rows replaced: \(names)")
        return (try JSONSerialization.data(withJSONObject: menus), names)
    }

    /// The numbers of the foods of one kind that rows of `body` give (its legitimate ids).
    static func ids(_ field: String, in body: Data) throws -> Set<String> {
        let text = String(decoding: body, as: UTF8.self)
        let pattern = try Regex("\"\(field)\":([0-9]+)")
        return Set(text.matches(of: pattern).compactMap { ($0.output[1].substring).map(String.init) })
    }

    @Test func idsUnlikeTheFeedsAreReportedAndNeverRequested() async throws {
        let (menu, names) = try Self.hostileMenu()
        let ingredients = try #require(try JSONSerialization.jsonObject(
            with: Data(contentsOf: Self.feed.appendingPathComponent("ingredients-2025-11-07.json"))) as? [String: Any])
            .mapValues { try JSONSerialization.data(withJSONObject: $0) }
        let server = try TestHTTPServer(lifetime: .seconds(300), script: { request, _ in
            let json = [("Content-Type", "application/json")]
            if request.path == "/menus/\(Self.date).json" { return Reply(headers: json, body: menu, keepAlive: true) }
            let parts = request.path.split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count == 3, parts[2].hasSuffix(".json") else { return Reply(status: 404, keepAlive: true) }
            let id = String(parts[2].dropLast(".json".count))
            switch parts[1] {
            case "recipes" where id.allSatisfy(\.isNumber):
                guard let body = try? Data(contentsOf: Self.feed.appendingPathComponent("recipes/\(id).json")) else { break }
                return Reply(headers: json, body: body, keepAlive: true)
            case "ingredients":
                guard let body = ingredients[id] else { break }
                return Reply(headers: json, body: body, keepAlive: true)
            default:
                break
            }
            return Reply(status: 404, keepAlive: true)
        })
        defer { server.stop() }
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let pipeline = folder.appendingPathComponent("hostile-ids.yml")
        try Data("""
            pipeline: hostile-ids
            sources:
              - name: ucla
                adapter: ucla-jamix
                location: \(server.url(""))
                dates: {from: \(Self.date), to: \(Self.date)}
            fetch:
              timeout_seconds: 5
              retries: 0
              delay_ms: 0
            """.utf8).write(to: pipeline)
        let run = try await CommissaryProcess.run(["run", pipeline.path, "--workspace", folder.path, "--date", Self.date])
        #expect(run.status == 0, "\(run.error)")

        // Every request stayed in the feed's folders, for a document a legitimate row names.
        let recipes = try Self.ids("recipeId", in: menu)
        let ingredientIds = try Self.ids("ingredientId", in: menu)
        let requests = server.requests.map(\.path)
        #expect(requests.contains("/menus/\(Self.date).json") && requests.count > 100, "\(requests.count) requests")
        for path in requests where path != "/menus/\(Self.date).json" {
            let match = path.wholeMatch(of: /\/(recipes|ingredients)\/([0-9]+)\.json/)
            #expect(match != nil, "requested \(path.debugDescription)")
            if let match {
                #expect((match.output.1 == "recipes" ? recipes : ingredientIds).contains(String(match.output.2)),
                        "requested \(path), which no row of the menu names")
            }
        }

        // Each row is reported, with its name and the id as given (control characters escaped).
        let snapshot = try #require(SnapshotStore(directory: folder.appendingPathComponent("snapshots"))
            .latest(pipeline: "hostile-ids"))
        let warnings = try QueryResult.run("SELECT message FROM _checks WHERE name = 'partition_warning'", on: snapshot)
            .rows.compactMap { row -> String? in if case .text(let text) = row.first { text } else { nil } }
        for (id, name) in names {
            let field = id == Self.hostileIngredientId ? "ingredientId" : "recipeId"
            #expect(warnings.contains { $0.contains("(\(name))") && $0.contains("\(field) \(id.debugDescription) is not one "
                                                                                  + "of the source's ids (a whole number)") },
                    "no warning for \(id.debugDescription) (\(name))")
        }
        #expect(!warnings.contains { $0.contains("\r") || $0.contains("\n") })

        // No food and no menu item carries an id the feed does not give.
        for sql in ["SELECT recipe_id FROM food", "SELECT food_id FROM menu_item"] {
            let ids = try QueryResult.run(sql, on: snapshot).rows.compactMap { row -> String? in
                if case .text(let text) = row.first { text } else { nil }
            }
            #expect(!ids.isEmpty)
            for id in ids {
                #expect(id.wholeMatch(of: /(ucla-jamix:)?(recipe|ingredient)-[0-9]+/) != nil, "\(sql): \(id.debugDescription)")
            }
        }
    }

    /// DineOnCampus: a site's listing that gives a location id `../../v1/admin`, and a day's
    /// answer (the real one of 2019-07-08) that lists a period `x/../../y?z=1` beside its Lunch.
    /// Neither is asked for; both are reported; the good location's Lunch is published.
    @Test func aPlatformsIdsThatWouldClimbAreNotRequested() async throws {
        let saved = Paths.sharedData.appendingPathComponent("dineoncampus-2019/location-menu-2019-07-08.json")
        var answer = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: saved)) as? [String: Any])
        var menu = try #require(answer["menu"] as? [String: Any])
        let lunch = try #require((menu["periods"] as? [[String: Any]])?.first)
        let lunchItems = (lunch["categories"] as? [[String: Any]] ?? []).reduce(0) { $0 + (($1["items"] as? [Any])?.count ?? 0) }
        menu["periods"] = lunch
        answer["menu"] = menu
        answer["periods"] = [["id": lunch["id"] ?? "", "name": "Lunch"], ["id": "x/../../y?z=1", "name": "Dinner"]]
        let day = try JSONSerialization.data(withJSONObject: answer)
        let listing = Data(#"""
            {"status": "success", "locations": [{"id": "loc1", "name": "Wadsworth"},
                                                {"id": "../../v1/admin", "name": "Hostile"}]}
            """#.utf8)
        let all = "/v1/locations/all_locations?platform=0&site_id=5751fd2b90975b60e048929a&for_menus=true&with_buildings=true"
        let first = "/v1/location/loc1/periods?platform=0&date=2019-07-08"
        let server = try TestHTTPServer { request, _ in
            let json = [("Content-Type", "application/json")]
            switch request.path {
            case all: return Reply(headers: json, body: listing, keepAlive: true)
            case first: return Reply(headers: json, body: day, keepAlive: true)
            default: return Reply(status: 404, keepAlive: true)
            }
        }
        defer { server.stop() }
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let pipeline = folder.appendingPathComponent("site.yml")
        try Data("""
            pipeline: site
            sources:
              - name: campus
                adapter: dineoncampus
                location: \(server.url(""))
                dates: {from: 2019-07-08, to: 2019-07-08}
                site_id: 5751fd2b90975b60e048929a
            fetch: {delay_ms: 0, retries: 0, timeout_seconds: 10}
            """.utf8).write(to: pipeline)
        let run = try await CommissaryProcess.run(["run", pipeline.path, "--workspace", folder.path, "--date", "2019-07-08"])
        #expect(run.status == 0, "\(run.error)")
        #expect(Set(server.requests.map(\.path)) == [all, first])
        let snapshot = try #require(SnapshotStore(directory: folder.appendingPathComponent("snapshots")).latest(pipeline: "site"))
        let warnings = try QueryResult.run("SELECT message FROM _checks WHERE name = 'partition_warning'", on: snapshot)
            .rows.compactMap { row -> String? in if case .text(let text) = row.first { text } else { nil } }
        #expect(warnings.contains { $0.contains(#"location "Hostile": id "../../v1/admin" is not one of the source's ids"#) },
                "\(warnings)")
        #expect(warnings.contains { $0.contains(#"period "Dinner": id "x/../../y?z=1" is not one of the source's ids"#) },
                "\(warnings)")
        #expect(try QueryResult.run("SELECT meal, restaurant, count(*) FROM v_menu GROUP BY 1, 2", on: snapshot).rows
                == [[.text("Lunch"), .text("Wadsworth"), .integer(Int64(lunchItems))]])
    }
}
