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

/// UCLA's live feed, on the seven real nights saved in `../shared/data/ucla-jamix-2025`
/// (2025-04-07..13, six dates a night). Expected counts are taken from the JSON by this test's
/// own reading of it, not by the adapter's.
@Suite struct UCLAJamixTests {
    static let folder = Paths.sharedData.appendingPathComponent("ucla-jamix-2025")
    static let nights = (7...13).map { ServiceDate("2025-04-\(String(format: "%02d", $0))")! }

    static func menuFile(night: ServiceDate, date: ServiceDate) -> URL {
        folder.appendingPathComponent("nights/\(night)/menus/\(date).json")
    }

    static func dates(of night: ServiceDate) -> [ServiceDate] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("nights/\(night)/menus").path)) ?? [])
            .compactMap { ServiceDate(String($0.dropLast(".json".count))) }.sorted()
    }

    /// One published row of a day file, as this test reads it: its store, meal, station, food.
    struct Row: Hashable {
        var date: String
        var meal: String
        var store: String
        var station: String
        var food: String
        var name: String
        var portion: String?
    }

    static func rows(night: ServiceDate, date: ServiceDate) throws -> [Row] {
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: menuFile(night: night, date: date)))
        var rows: [Row] = []
        for case let menu as [String: Any] in json as? [Any] ?? [] {
            for case let week as [String: Any] in menu["menuWeeks"] as? [Any] ?? [] {
                for case let day as [String: Any] in week["menuDays"] as? [Any] ?? [] where day["dayDate"] as? String == "\(date)" {
                    for case let option as [String: Any] in day["menuDayMealOptions"] as? [Any] ?? [] {
                        let list: [Any] = (option["menuRows"] as? [Any])
                            ?? (option["menuRows"] as? [String: Any]).map { Array($0.values) } ?? []
                        for case let row as [String: Any] in list where (row["publish"] as? Bool) ?? true {
                            let food: String
                            if let recipe = row["recipeId"] as? Int, recipe > 0 {
                                food = "recipe-\(recipe)"
                            } else if let ingredient = row["ingredientId"] as? Int, ingredient > 0 {
                                food = "ingredient-\(ingredient)"
                            } else {
                                continue
                            }
                            var portion: String?
                            if let size = (row["menuRowPortionSize"] as? NSNumber)?.doubleValue {
                                let amount = size == size.rounded() ? "\(Int(size))" : "\(size)"
                                portion = [amount, row["menuRowPortionSizeUnit"] as? String].compactMap { $0 }
                                    .joined(separator: " ")
                            }
                            // Names as a reader sees them: "Entrée " and "Entrée" are one station.
                            func name(_ value: Any?) -> String {
                                (value as? String ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
                            }
                            rows.append(Row(date: "\(date)", meal: name(menu["menuTypeName"]),
                                            store: name(menu["storeName"]), station: name(option["mealOptionName"]),
                                            food: food, name: name(row["menuRowName"]), portion: portion))
                        }
                    }
                }
            }
        }
        return rows
    }

    /// Every real night's every day is read with no error and no row lost: the items per meal,
    /// store and station are the rows the file publishes there.
    @Test func everyRealNightReadsWithNoLostRow() throws {
        var files = 0
        for night in Self.nights {
            for date in Self.dates(of: night) {
                let url = Self.menuFile(night: night, date: date)
                let parsed = try JamixMenuDay.parse(Data(contentsOf: url), date: date, location: url.path)
                #expect(parsed.problems.isEmpty, "\(url.lastPathComponent): \(parsed.problems)")
                var read: [String: Int] = [:]
                for meal in parsed.day.meals {
                    for restaurant in meal.restaurants {
                        for section in restaurant.sections {
                            read["\(meal.name)|\(restaurant.name)|\(section.name)", default: 0] += section.foods.count
                        }
                    }
                }
                var expected: [String: Int] = [:]
                for row in try Self.rows(night: night, date: date) {
                    expected["\(row.meal)|\(row.store)|\(row.station)", default: 0] += 1
                }
                #expect(read == expected, "night \(night), \(date)")
                files += 1
            }
        }
        #expect(files == 42)
    }

    /// The drift the feed shows over the months, made on a real day: rows as an object keyed by
    /// position, a row with neither id, a menu without a store, a station whose rows are text,
    /// an unpublished row. Each costs only itself, and says where it was.
    @Test func localDamageCostsOnlyItself() throws {
        let date = Self.nights[0]
        let url = Self.menuFile(night: date, date: date)
        var menus = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [[String: Any]])
        let total = try Self.rows(night: date, date: date).count
        func rows(_ menu: Int, _ option: Int) -> [[String: Any]] {
            let weeks = menus[menu]["menuWeeks"] as! [[String: Any]]
            let days = weeks[0]["menuDays"] as! [[String: Any]]
            let options = days[0]["menuDayMealOptions"] as! [[String: Any]]
            return options[option]["menuRows"] as! [[String: Any]]
        }
        func setRows(_ menu: Int, _ option: Int, _ value: Any) {
            var weeks = menus[menu]["menuWeeks"] as! [[String: Any]]
            var days = weeks[0]["menuDays"] as! [[String: Any]]
            var options = days[0]["menuDayMealOptions"] as! [[String: Any]]
            options[option]["menuRows"] = value
            days[0]["menuDayMealOptions"] = options
            weeks[0]["menuDays"] = days
            menus[menu]["menuWeeks"] = weeks
        }
        // Menu 0's first station: rows keyed by position, the second without ids, the third unpublished.
        var first = rows(0, 0)
        first[1]["recipeId"] = nil
        first[1]["ingredientId"] = nil
        first[2]["publish"] = false
        // Counts no Int holds, or that are no count: each row stays, without its planned portions.
        first[3]["menuRowPlannedPortions"] = 1e19
        first[4]["menuRowPlannedPortions"] = "NaN"
        first[5]["menuRowPlannedPortions"] = 2.5
        let keyed = Dictionary(uniqueKeysWithValues: first.enumerated().map { ("\($0.offset)", $0.element as Any) })
        setRows(0, 0, keyed)
        // Menu 1's first station: text where rows should be.
        let lostStation = rows(1, 0).count
        setRows(1, 0, "not rows")
        // Menu 2 loses its store.
        let lostMenu = try Self.rowsOfMenu(menus[2], date: date)
        menus[2]["storeName"] = nil

        let damaged = try JSONSerialization.data(withJSONObject: menus)
        let parsed = try JamixMenuDay.parse(damaged, date: date, location: "damaged.json")
        #expect(parsed.day.menuItemCount == total - 2 - lostStation - lostMenu)
        #expect(parsed.unpublishedRows == 1)
        #expect(parsed.problems.count == 6, "\(parsed.problems)")
        #expect(parsed.problems.filter { $0.contains("is not a count of portions, left out") }.count == 3)
        // The rows stay on the menu, without a count (rows of the same name elsewhere keep theirs).
        for index in 3...5 {
            let name = try #require(first[index]["menuRowName"] as? String)
            #expect(parsed.day.menuItems.contains { $0.name == name && $0.plannedPortions == nil }, "\(name)")
        }
        #expect(parsed.problems.contains { $0.contains("neither recipeId nor ingredientId") && $0.contains("row \"1\"") })
        #expect(parsed.problems.contains { $0.contains("menuRows is text") })
        #expect(parsed.problems.contains { $0.contains("names no store") })
        #expect(parsed.problems.allSatisfy { $0.hasPrefix("damaged.json: menu \"") })

        // Damage that is not local fails the day, in one line naming the file.
        for broken in [Data(damaged.prefix(damaged.count / 2)), Data("{\"menus\": 1}".utf8), Data("<html>".utf8)] {
            let error = #expect(throws: Failure.self) {
                try JamixMenuDay.parse(broken, date: date, location: "broken.json")
            }
            #expect(error?.place?.location == "broken.json")
        }
    }

    static func rowsOfMenu(_ menu: [String: Any], date: ServiceDate) throws -> Int {
        var count = 0
        for case let week as [String: Any] in menu["menuWeeks"] as? [Any] ?? [] {
            for case let day as [String: Any] in week["menuDays"] as? [Any] ?? [] where day["dayDate"] as? String == "\(date)" {
                for case let option as [String: Any] in day["menuDayMealOptions"] as? [Any] ?? [] {
                    count += (option["menuRows"] as? [Any])?.count ?? 0
                }
            }
        }
        return count
    }

    /// The real ingredient documents read into foods: name, ingredients, allergens as codes (raw
    /// kept), and a label only where the document has one that is not all zeros.
    @Test func realIngredientDocumentsBecomeFoods() throws {
        let all = try #require(try JSONSerialization.jsonObject(
            with: Data(contentsOf: Self.folder.appendingPathComponent("ingredients-2025-11-07.json"))) as? [String: Any])
        #expect(all.count == 19)
        for (id, document) in all {
            let data = try JSONSerialization.data(withJSONObject: document)
            let food = try JamixFoodDocument.parse(data, foodId: "ingredient-\(id)", location: "\(id).json").food
            let fields = try #require(document as? [String: Any])
            #expect(food.name == (fields["ingredientName"] as? String)?.trimmingCharacters(in: .whitespaces))
            #expect(food.allergens == (fields["ingredientAllergens"] as? [String] ?? []))
            let values = fields["ingredientNutritiveValues"] as? [String: Any]
            let kcal = (values?["energyKcal"] as? NSNumber)?.doubleValue
            if let kcal, kcal > 0 {
                // Per 100 g (the document's `portion`), which is no serving: only a menu row states one.
                #expect(food.calories == kcal)
                #expect(food.labelBasis == .hundredGrams && food.servingSize == nil)
            }
        }
        // Bagel Everything Jalapeno Cheese (7808): five allergens as UCLA's codes, its label all zeros.
        let bagel = try JamixFoodDocument.parse(
            JSONSerialization.data(withJSONObject: try #require(all["7808"])), foodId: "ingredient-7808", location: "7808.json").food
        // The document's allergens, as printed and in its order.
        #expect(bagel.codes == ["Soy", "Gluten", "Wheat", "Sesame", "Dairy"])
        #expect(bagel.nutrients.isEmpty && bagel.calories == nil && bagel.labelBasis == nil)
    }

    /// A real recipe document (`recipes/1007.json`, Tuna & Lentil Hummus Stacker), with values
    /// read by hand from the file: the serving is the portion (2.92 oz), not the batch (742); the
    /// nutrients are per 100 g with the printed %DV of that amount; the diets come from the short
    /// codes; a field that cannot be read costs only itself; a null label keeps the dish.
    @Test func aRealRecipeDocumentIsReadAsItIs() throws {
        let url = Self.folder.appendingPathComponent("recipes/1007.json")
        let reading = try JamixFoodDocument.parse(Data(contentsOf: url), foodId: "recipe-1007", location: "recipes/1007.json")
        let food = reading.food
        #expect(reading.problems.isEmpty)
        #expect(food.name == "Tuna & Lentil Hummus Stacker")
        #expect(food.servingSize == "2.92 oz" && food.serving == ServingSize(amount: 2.92, unit: "oz"))
        #expect(food.batchPortions == 742)
        #expect(abs((food.servingGrams ?? 0) - 2.92 * 28.349523125) < 1e-9)
        #expect(food.labelBasis == .hundredGrams)
        let fields = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        let values = try #require(fields["recipeNutritiveValues"] as? [String: Any])
        let energy = try #require((values["energyKcal"] as? [String: Any])?["value"] as? NSNumber).doubleValue
        #expect(food.calories == energy)
        #expect(food.codes.contains("Alcohol") == false)
        let dv = try #require(fields["dailyValues"] as? [String: Any])
        let fatPercent = try #require((dv["fat"] as? [String: Any])?["value"] as? NSNumber).doubleValue
        #expect(food.nutrients.first { $0.key == .totalFat }?.printedDailyValuePercent == fatPercent)

        var edited = fields
        edited["recipeAllergens"] = [["allergenName": "Fish"], 17]
        edited["recipeDiet"] = "VG,XY"
        edited["recipeDietFull"] = "Vegan, Extra Yummy"
        edited["recipeNutritiveValues"] = NSNull()
        let odd = try JamixFoodDocument.parse(JSONSerialization.data(withJSONObject: edited), foodId: "recipe-1007",
                                              location: "recipes/1007.json")
        #expect(odd.problems == ["recipes/1007.json: recipeAllergens[1] has no allergenName, left out"])
        // An unknown code takes the one spelled-out name no known code accounts for.
        #expect(odd.food.codes == ["Vegan", "Extra Yummy", "Fish"])
        #expect(odd.food.nutrients.isEmpty && odd.food.labelBasis == nil && odd.food.calories == nil)
        #expect(odd.food.name == food.name && odd.food.components == food.components && !food.components.isEmpty)

        // A block whose every name is new to the reader is a label that gave nothing: it keeps its
        // basis, so the checks name it (label_without_nutrients), instead of a dish without a label.
        var renamed: [String: Any] = [:]
        for (key, value) in values { renamed[["portionSize", "portitionSizeUnit"].contains(key) ? key : "x_" + key] = value }
        edited["recipeNutritiveValues"] = renamed
        let unknownNames = try JamixFoodDocument.parse(JSONSerialization.data(withJSONObject: edited), foodId: "recipe-1007",
                                                       location: "recipes/1007.json")
        #expect(unknownNames.food.nutrients.isEmpty && unknownNames.food.labelBasis == .hundredGrams)

        edited["recipeNutritiveValues"] = ["portionSize": 1, "portitionSizeUnit": "portion", "energyKcal": 310]
        let perPortion = try JamixFoodDocument.parse(JSONSerialization.data(withJSONObject: edited), foodId: "recipe-1007",
                                                     location: "recipes/1007.json")
        #expect(perPortion.food.nutrients.isEmpty && perPortion.food.labelBasis == nil)
        #expect(perPortion.problems.contains { $0.contains("not per 100 g") })

        edited["recipeNutritiveValues"] = ["energyKcal": "lots"]
        let error = #expect(throws: Failure.self) {
            try JamixFoodDocument.parse(JSONSerialization.data(withJSONObject: edited), foodId: "recipe-1007",
                                        location: "recipes/1007.json")
        }
        #expect(error?.description == "recipes/1007.json: recipeNutritiveValues.energyKcal: expected a number or an object with a numeric value, found text")
    }

    /// Each short diet code of the 1,078 real documents means what its document spells out.
    @Test func dietCodesMeanWhatTheirDocumentsSpellOut() throws {
        let folder = Self.folder.appendingPathComponent("recipes")
        for file in try FileManager.default.contentsOfDirectory(atPath: folder.path) where file.hasSuffix(".json") {
            let fields = try #require(try JSONSerialization.jsonObject(
                with: Data(contentsOf: folder.appendingPathComponent(file))) as? [String: Any])
            let food = try JamixFoodDocument.parse(Data(contentsOf: folder.appendingPathComponent(file)),
                                                   foodId: "recipe-\(file.dropLast(5))", location: file).food
            let spelled = (fields["recipeDietFull"] as? String ?? "").split(separator: ",")
                .map { $0.trimmingCharacters(in: .whitespaces) }
            #expect(Set(food.codes).isSuperset(of: spelled), "\(file)")
        }
    }

    /// Whether a food id's saved document has a label with some value that is not 0, read here
    /// from the files.
    /// A portion as the feed writes it ("1.69 oz"), in grams; nil for any other unit.
    static func grams(_ portion: String) -> Double? {
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
    static func recipePortionGrams(_ food: String) throws -> Double? {
        let file = folder.appendingPathComponent("recipes/\(food.dropFirst("recipe-".count)).json")
        guard FileManager.default.fileExists(atPath: file.path),
              let json = try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any],
              let size = (json["recipePortionSize"] as? NSNumber)?.doubleValue, let unit = json["recipePortionSizeUnit"] as? String
        else { return nil }
        return grams("\(size) \(unit)")
    }

    static func hasFilledLabel(_ food: String) throws -> Bool {
        func filled(_ values: [String: Any]?) -> Bool {
            (values ?? [:]).contains { key, value in
                key != "portion" && key != "portionSize"
                    && ((value as? NSNumber) ?? ((value as? [String: Any])?["value"] as? NSNumber)).map { $0.doubleValue != 0 } == true
            }
        }
        if food.hasPrefix("recipe-") {
            let file = folder.appendingPathComponent("recipes/\(food.dropFirst("recipe-".count)).json")
            guard let data = try? Data(contentsOf: file) else { return false }
            let fields = try JSONSerialization.jsonObject(with: data) as? [String: Any]
            return filled(fields?["recipeNutritiveValues"] as? [String: Any])
        }
        let all = try JSONSerialization.jsonObject(
            with: Data(contentsOf: folder.appendingPathComponent("ingredients-2025-11-07.json"))) as? [String: Any]
        let document = all?[String(food.dropFirst("ingredient-".count))] as? [String: Any]
        return filled(document?["ingredientNutritiveValues"] as? [String: Any])
    }

    // MARK: - Night after night

    /// A server that mirrors the feed's paths for the night set in `night`: ingredient documents
    /// from the real ones saved, recipe documents from the 1,078 saved (an id without one is not
    /// found, as UCLA's server answered for them).
    final class FeedServer: Sendable {
        let server: TestHTTPServer
        let nightBox: NightBox

        init() throws {
            let ingredients = try JSONSerialization.jsonObject(
                with: Data(contentsOf: UCLAJamixTests.folder.appendingPathComponent("ingredients-2025-11-07.json")))
                as? [String: Any] ?? [:]
            let bodies = try ingredients.mapValues { try JSONSerialization.data(withJSONObject: $0) }
            let box = NightBox()
            let night: @Sendable () -> ServiceDate = { box.get() }
            nightBox = box
            server = try TestHTTPServer(lifetime: .seconds(300), script: { request, _ in
                let parts = request.path.split(separator: "/").map(String.init)
                guard parts.count == 2 else { return Reply(status: 404) }
                let name = String(parts[1].dropLast(".json".count))
                switch parts[0] {
                case "menus":
                    guard let date = ServiceDate(name),
                          var body = try? Data(contentsOf: UCLAJamixTests.menuFile(night: night(), date: date))
                    else { return Reply(status: 404) }
                    if box.broken() == date {
                        // The feed renames the list of a day's meal options: the menus arrive empty.
                        body = Data(String(decoding: body, as: UTF8.self)
                            .replacingOccurrences(of: "\"menuDayMealOptions\"", with: "\"mealOptions\"").utf8)
                    }
                    return Reply(headers: [("Content-Type", "application/json")], body: body, keepAlive: true)
                case "recipes":
                    guard box.servesRecipes() else { return Reply(status: 404, keepAlive: true) }
                    guard name.allSatisfy(\.isNumber),
                          let body = try? Data(contentsOf: UCLAJamixTests.folder.appendingPathComponent("recipes/\(name).json"))
                    else { return Reply(status: 404, keepAlive: true) }
                    return Reply(headers: [("Content-Type", "application/json")], body: body, keepAlive: true)
                case "ingredients":
                    guard let body = bodies[name] else { return Reply(status: 404, keepAlive: true) }
                    switch box.ingredients() {
                    case .served: break
                    case .failing: return Reply(status: 500, keepAlive: true)
                    case .renamed:
                        // The feed renames its nutrient block: the documents arrive without values.
                        let renamed = String(decoding: body, as: UTF8.self)
                            .replacingOccurrences(of: "\"ingredientNutritiveValues\"", with: "\"nutritiveValues\"")
                        return Reply(headers: [("Content-Type", "application/json")], body: Data(renamed.utf8),
                                     keepAlive: true)
                    }
                    return Reply(headers: [("Content-Type", "application/json")], body: body, keepAlive: true)
                default:
                    return Reply(status: 404, keepAlive: true)
                }
            })
        }

        final class NightBox: @unchecked Sendable {
            private let lock = NSLock()
            private var night = UCLAJamixTests.nights[0]
            private var brokenDate: ServiceDate?
            func get() -> ServiceDate { lock.withLock { night } }
            func set(_ value: ServiceDate) { lock.withLock { night = value } }
            enum Ingredients { case served, failing, renamed }
            private var ingredientDocuments = Ingredients.served
            func ingredients() -> Ingredients { lock.withLock { ingredientDocuments } }
            func serveIngredients(_ value: Ingredients) { lock.withLock { ingredientDocuments = value } }
            private var recipeDocuments = true
            func servesRecipes() -> Bool { lock.withLock { recipeDocuments } }
            func serveRecipes(_ value: Bool) { lock.withLock { recipeDocuments = value } }
            /// The date whose menu the feed serves broken, if any.
            func broken() -> ServiceDate? { lock.withLock { brokenDate } }
            func breakMenu(of date: ServiceDate?) { lock.withLock { brokenDate = date } }
        }
    }

    /// The bundled `Pipelines/nightly-ucla.yml` itself, pointed at the local mirror instead of
    /// UCLA, with `extra` appended; its places and standards are the repository's.
    static func bundledNightly(in workspace: URL, feed: FeedServer, adding extra: String = "") throws -> PipelineSpec {
        let pipelines = workspace.appendingPathComponent("Pipelines")
        try FileManager.default.createDirectory(at: pipelines, withIntermediateDirectories: true)
        for folder in ["places", "standards", "plans", "terms", "nutrition"] {
            try FileManager.default.createSymbolicLink(at: pipelines.appendingPathComponent(folder),
                                                       withDestinationURL: Paths.pipelines.appendingPathComponent(folder))
        }
        let bundled = try String(contentsOf: Paths.pipelines.appendingPathComponent("nightly-ucla.yml"), encoding: .utf8)
        // Politeness towards UCLA's server (half a second between requests) is no concern here.
        let local = bundled.replacingOccurrences(of: "https://dining.ucla.edu/wp-content/uploads/jamix",
                                                 with: feed.server.url(""))
            .replacingOccurrences(of: "delay_ms: 500", with: "delay_ms: 0")
        #expect(local != bundled)
        let file = pipelines.appendingPathComponent("nightly-ucla.yml")
        try Data((local + extra).utf8).write(to: file)
        return try SpecReader.read(file)
    }

    /// Every date on the night's menus is a day of Spring 2025 (terms/ucla-2024-25.yml: from
    /// Wednesday 26 March, ten weeks and finals), with a balance for each of UCLA's plans after
    /// each meal the feed lists that day: the periods are the menus'.
    static func expectSpringSwipeTables(in snapshot: URL, night: ServiceDate) throws {
        let plans = try String(contentsOf: Paths.pipelines.appendingPathComponent("plans/ucla.yml"), encoding: .utf8)
            .split(separator: "\n").filter { $0.hasPrefix("  - code: ") }.count
        #expect(plans == 6)
        for date in dates(of: night) {
            var meals: [String] = []
            for row in try rows(night: night, date: date) where !meals.contains(row.meal) { meals.append(row.meal) }
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
        let workspace = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: workspace) }
        let feed = try FeedServer()
        defer { feed.server.stop() }
        let swipes = try #require(try Self.bundledNightly(in: workspace, feed: feed).swipes)
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
    }

    private func run(_ spec: PipelineSpec, night: ServiceDate, workspace: URL) async throws -> RunReport {
        try await PipelineRunner(
            spec: spec,
            options: RunOptions(workspace: Workspace(root: workspace), today: night),
            observer: SilentObserver(), logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })).run()
    }

    /// One run per night, in order, against the seven real nights: each night's snapshot holds
    /// exactly that night's feed, a rerun of a night publishes nothing, each ingredient document
    /// is fetched once across the nights, and the diff of two nights lists what really changed.
    @Test func sevenRealNightsInOrder() async throws {
        let workspace = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: workspace) }
        let feed = try FeedServer()
        defer { feed.server.stop() }
        // The bundled nightly pipeline itself, pointed at the local mirror instead of UCLA.
        let spec = try Self.bundledNightly(in: workspace, feed: feed)
        let places = try #require(spec.places)
        var previous: (night: ServiceDate, snapshot: URL)?
        var labels: [String: Bool] = [:]
        for night in Self.nights {
            feed.nightBox.set(night)
            let report = try await run(spec, night: night, workspace: workspace)
            #expect(report.published, "night \(night): \(report.blockingChecks.map(\.message))")
            let snapshot = URL(fileURLWithPath: try #require(report.snapshotPath))

            // Exactly that night's feed: items per date, restaurant and station.
            var expected: [String: Int] = [:]
            for date in Self.dates(of: night) {
                for row in try Self.rows(night: night, date: date) {
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
            for date in Self.dates(of: night) {
                for row in try Self.rows(night: night, date: date) {
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
            #expect(share.message.hasPrefix("ucla-jamix: \(labelled) of \(items) menu item(s) carry a label"), "\(share.message)")
            #expect(share.message.contains("\(items - labelled) without"))

            // Foods served at a portion less than half or more than twice their recipe's own
            // (this test's reading of the files): flagged, and no other. On the first night, Taiwanese
            // Fried Chicken (recipe 1588, a 22.44 oz portion) is served at 1.69 oz on 2025-04-08.
            var mismatched: Set<String> = []
            for date in Self.dates(of: night) {
                for row in try Self.rows(night: night, date: date) where row.food.hasPrefix("recipe-") {
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
            if night == Self.nights[0] {
                #expect(mismatched.contains("ucla-jamix:recipe-1588"))
                let chicken = try QueryResult.run("""
                    SELECT message FROM food_flag WHERE check_name = 'portion_mismatch' AND food_id = 'ucla-jamix:recipe-1588'
                    """, on: snapshot).rows
                #expect(chicken == [[.text("the menus serve it at 1.69 oz (47.9 g), but its per-serving amounts are for "
                                            + "its own serving, 22.44 oz (636.2 g)")]])
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
                let shared = Set(Self.dates(of: previous.night)).intersection(Self.dates(of: night))
                // Rows as a multiset: a row served twice and then once is one removal.
                func keys(_ night: ServiceDate) throws -> [String: Int] {
                    var keys: [String: Int] = [:]
                    for date in shared {
                        for row in try Self.rows(night: night, date: date) {
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
            with: Data(contentsOf: Self.folder.appendingPathComponent("ingredients-2025-11-07.json"))) as? [String: Any])
        let asked = perPath.filter { served[String($0.key.dropFirst("/ingredients/".count).dropLast(".json".count))] != nil }
        #expect(!asked.isEmpty)
        #expect(asked.values.allSatisfy { $0 == 1 }, "\(asked)")
    }

    /// `history: {keep: all}` over the seven nights: the last snapshot holds every date the feed
    /// ever published (2025-04-07..18), each day as the last night that published it had it, and
    /// the days no longer in the feed are read from the raw store without a request. Each
    /// night's change set from the night before replays to exactly that night's snapshot.
    @Test func historyKeepsEveryDateEverPublished() async throws {
        let workspace = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: workspace) }
        let feed = try FeedServer()
        defer { feed.server.stop() }
        let spec = try Self.bundledNightly(in: workspace, feed: feed, adding: "\nhistory:\n  keep: all\n")
        #expect(spec.history == .all)
        let places = try #require(spec.places)
        var last: URL?
        var published: [URL] = []
        var lastNight: [ServiceDate: ServiceDate] = [:]
        for night in Self.nights {
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
            for date in Self.dates(of: night) { lastNight[date] = night }
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
            for row in try Self.rows(night: night, date: date) {
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
        let date = Self.nights[2]
        let planned = Self.nights[1]
        #expect(try Self.rows(night: planned, date: date) != (try Self.rows(night: date, date: date)))
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
            == [[.integer(Int64(try Self.rows(night: planned, date: date).count))]])
        let others = "SELECT count(*) FROM v_menu WHERE date <> '\(date)'"
        #expect(try QueryResult.run(others, on: repairedFile).rows == (try QueryResult.run(others, on: snapshot).rows))
    }

    /// A night whose feed breaks one date's menu publishes that date as the night before had it,
    /// marked stale; the next good night replaces it.
    @Test func aBrokenDateIsCarriedFromTheNightBefore() async throws {
        let workspace = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: workspace) }
        let feed = try FeedServer()
        defer { feed.server.stop() }
        let spec = try Self.bundledNightly(in: workspace, feed: feed)
        let date = try #require(ServiceDate("2025-04-09"))
        let menuOf = { (report: RunReport) throws -> [String] in
            let file = URL(fileURLWithPath: try #require(report.snapshotPath))
            return try QueryResult.run("""
                SELECT meal || '|' || restaurant || '|' || section || '|' || item || '|' || food_id
                FROM v_menu WHERE date = '\(date)' ORDER BY 1
                """, on: file).rows.map { "\($0)" }
        }

        feed.nightBox.set(Self.nights[0])
        let first = try await run(spec, night: Self.nights[0], workspace: workspace)
        #expect(first.published && first.stale.isEmpty)
        let before = try menuOf(first)
        #expect(before.count == (try Self.rows(night: Self.nights[0], date: date)).count)

        feed.nightBox.set(Self.nights[1])
        feed.nightBox.breakMenu(of: date)
        let broken = try await run(spec, night: Self.nights[1], workspace: workspace)
        #expect(broken.published, "\(broken.blockingChecks.map(\.message))")
        // The date, and the labels of the foods only that date's menu named (its recipe documents
        // were not asked for, since the menu could not be read), both as the night before had them.
        #expect(broken.stale.count == 2, "\(broken.stale)")
        #expect(broken.stale.first?.hasPrefix("ucla/2025-04-09 is stale") == true)
        #expect(broken.stale.last?.hasPrefix("ucla-jamix: ") == true && broken.stale.last?.contains("food label(s) kept") == true)
        let stale = try SnapshotReader.stalePartitions(of: URL(fileURLWithPath: try #require(broken.snapshotPath)))
        #expect(Set(stale.map(\.keptRunId)) == [first.manifest.runId])
        let carried = try menuOf(broken)
        #expect(carried.count == before.count && carried == before)

        feed.nightBox.set(Self.nights[2])
        feed.nightBox.breakMenu(of: nil)
        let mended = try await run(spec, night: Self.nights[2], workspace: workspace)
        #expect(mended.published && mended.stale.isEmpty)
        #expect(try menuOf(mended).count == (try Self.rows(night: Self.nights[2], date: date)).count)
    }

    /// Ingredient documents that fail, or arrive with their nutrient block renamed, on a night
    /// that reads them all again: every label keeps what the night before published, marked stale.
    @Test(arguments: [FeedServer.NightBox.Ingredients.failing, .renamed])
    func brokenFoodDocumentsKeepTheLabelsOfTheNightBefore(_ breakage: FeedServer.NightBox.Ingredients) async throws {
        let workspace = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: workspace) }
        let feed = try FeedServer()
        defer { feed.server.stop() }
        let spec = try Self.bundledNightly(in: workspace, feed: feed)
        let nutrients = { (report: RunReport) throws -> [String] in
            let file = URL(fileURLWithPath: try #require(report.snapshotPath))
            return try QueryResult.run("""
                SELECT food_id || '|' || nutrient_key || '|' || ifnull(amount, '') FROM food_nutrient ORDER BY 1
                """, on: file).rows.map { "\($0)" }
        }
        feed.nightBox.set(Self.nights[0])
        let good = try await run(spec, night: Self.nights[0], workspace: workspace)
        let before = try nutrients(good)
        // Labels come from the saved ingredient documents that the night's menus name.
        #expect(!before.isEmpty)

        feed.nightBox.serveIngredients(breakage)
        let broken = try await PipelineRunner(
            spec: spec, options: RunOptions(workspace: Workspace(root: workspace), today: Self.nights[0], force: true),
            observer: SilentObserver(), logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })).run()
        #expect(broken.published, "\(breakage): \(broken.blockingChecks.map(\.message))")
        let after = try nutrients(broken)
        #expect(after.count == before.count && after == before, "\(breakage)")
        // The labels kept say what they are per, as the night before published them.
        #expect(try QueryResult.run("""
            SELECT count(*) FROM food f WHERE f.label_basis IS NOT '100 g'
            AND EXISTS (SELECT 1 FROM food_nutrient fn WHERE fn.food_id = f.id)
            """, on: URL(fileURLWithPath: try #require(broken.snapshotPath))).rows == [[.integer(0)]])
        #expect(broken.stale.count == 1 && broken.stale.first?.hasPrefix("ucla-jamix: ") == true, "\(broken.stale)")
        let stale = try SnapshotReader.stalePartitions(of: URL(fileURLWithPath: try #require(broken.snapshotPath)))
        // One stale row per ingredient that had a label (the recipe documents are served as before).
        let labelled = try QueryResult.run(
            "SELECT count(DISTINCT food_id) FROM food_nutrient WHERE food_id LIKE 'ucla-jamix:ingredient-%'",
                                           on: URL(fileURLWithPath: try #require(good.snapshotPath))).rows
        #expect([[.integer(Int64(stale.count))]] == labelled, "\(breakage)")

        feed.nightBox.serveIngredients(.served)
        let mended = try await run(spec, night: Self.nights[0], workspace: workspace)
        #expect(mended.published && mended.stale.isEmpty, "\(breakage): \(mended.stale)")
        #expect(try nutrients(mended) == before)
    }

    /// A first night on which no recipe document is found (the server moved them): the menus are there, but most of
    /// their foods would have no nutrition, so the pipeline's `min_labelled_share` holds the
    /// snapshot back and says why; the next night, with the documents answering, publishes.
    @Test func aNightWithoutItsRecipeDocumentsDoesNotPublishSilently() async throws {
        let workspace = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: workspace) }
        let feed = try FeedServer()
        defer { feed.server.stop() }
        let spec = try Self.bundledNightly(in: workspace, feed: feed)
        feed.nightBox.set(Self.nights[0])
        feed.nightBox.serveRecipes(false)
        let failing = try await run(spec, night: Self.nights[0], workspace: workspace)
        #expect(!failing.published)
        let blocking = failing.blockingChecks.filter { $0.name == "labelled_share" }
        #expect(blocking.count == 1)
        #expect(blocking.first?.message.contains("below checks.min_labelled_share (40.0%)") == true, "\(blocking)")

        feed.nightBox.serveRecipes(true)
        let answering = try await run(spec, night: Self.nights[0], workspace: workspace)
        #expect(answering.published, "\(answering.blockingChecks.map(\.message))")
    }
}
