import FoodModel
import Foundation
import SourceAdapters
import Testing
import TestSupport

/// The Bon Appétit reader on the real St. Olaf answer (`bonappetit-2016`, Stav Hall, 2016-11-22).
/// Every expected count is computed here from the file itself with `JSONSerialization`, walking
/// `days[0].cafes["261"].dayparts` and `items`, never copied from what the reader returned.
@Suite struct BonAppetitTests {
    static let file = "bonappetit-2016/261-stav-2016-11-22.json"

    private func parsed() throws -> BonAppetitMenu.Parsed {
        try BonAppetitMenu.parse(SharedData.load(Self.file), location: Self.file)
    }

    /// The file's dayparts (a list of lists in this answer), each with its stations' item ids.
    private func dayparts() throws -> [[String: Any]] {
        let top = try #require(try JSONSerialization.jsonObject(with: SharedData.load(Self.file)) as? [String: Any])
        let day = try #require((top["days"] as? [[String: Any]])?.first)
        let cafe = try #require((day["cafes"] as? [String: Any])?["261"] as? [String: Any])
        let lists = try #require(cafe["dayparts"] as? [[[String: Any]]])
        return lists.flatMap { $0 }
    }

    private func items() throws -> [String: [String: Any]] {
        let top = try #require(try JSONSerialization.jsonObject(with: SharedData.load(Self.file)) as? [String: Any])
        return try #require(top["items"] as? [String: [String: Any]])
    }

    @Test func everyItemOfEveryDaypartAndStationIsAMenuItem() throws {
        let parsed = try parsed()
        #expect(parsed.problems.isEmpty)
        let day = try #require(parsed.days.only)
        #expect(day.date == ServiceDate("2016-11-22"))
        let expected = try dayparts()
        #expect(day.meals.map(\.name) == expected.map { $0["label"] as? String ?? "" })
        for (meal, daypart) in zip(day.meals, expected) {
            let restaurant = try #require(meal.restaurants.only)
            #expect(restaurant.name == "Stav Hall")
            let stations = daypart["stations"] as? [[String: Any]] ?? []
            // Each station is a section, split by the sub-station its items name.
            for station in stations {
                let name = station["label"] as? String ?? ""
                let ids = (station["items"] as? [Any] ?? []).map { "\($0)" }
                let read = restaurant.sections.filter { $0.name == name || $0.name.hasPrefix(name + " / ") }
                    .flatMap(\.foods).map(\.recipeId)
                #expect(read.sorted() == ids.sorted(), "\(meal.name) \(name)")
            }
            let listed = stations.reduce(0) { $0 + (($1["items"] as? [Any])?.count ?? 0) }
            #expect(restaurant.sections.reduce(0) { $0 + $1.foods.count } == listed, "\(meal.name)")
        }
        // Each item id the stations list is one food, however many stations list it.
        let distinct = Set(try expected.flatMap { ($0["stations"] as? [[String: Any]] ?? []) }
            .flatMap { ($0["items"] as? [Any] ?? []).map { "\($0)" } })
        #expect(Set(parsed.foods.map(\.id.recipeId)) == distinct)
        #expect(distinct.count == (try items()).count)
    }

    /// The answer with its dayparts, and each station's items, written as objects keyed by
    /// position (`{"1": …, "2": …}`), as PHP writes an array whose keys are not 0, 1, 2… (the
    /// platform sends `cor_icon` so): the same day, item for item. An object read as no list made
    /// the café closed "no dayparts published for the day", and a station empty.
    @Test func listsWrittenAsObjectsKeyedByPositionAreTheSameLists() throws {
        var top = try #require(try JSONSerialization.jsonObject(with: SharedData.load(Self.file)) as? [String: Any])
        var days = try #require(top["days"] as? [[String: Any]])
        var cafes = try #require(days[0]["cafes"] as? [String: Any])
        var cafe = try #require(cafes["261"] as? [String: Any])
        func keyed(_ values: [Any]) -> [String: Any] {
            Dictionary(uniqueKeysWithValues: values.enumerated().map { (String($0.offset + 1), $0.element) })
        }
        let dayparts = try dayparts().map { daypart -> [String: Any] in
            var daypart = daypart
            daypart["stations"] = (daypart["stations"] as? [[String: Any]] ?? []).map { station -> [String: Any] in
                var station = station
                station["items"] = keyed(station["items"] as? [Any] ?? [])
                return station
            }
            return daypart
        }
        cafe["dayparts"] = keyed(dayparts)
        cafes["261"] = cafe
        days[0]["cafes"] = cafes
        top["days"] = days
        let keyedDay = try #require(try BonAppetitMenu.parse(JSONSerialization.data(withJSONObject: top),
                                                             location: "keyed.json").days.only)
        let listedDay = try #require(try parsed().days.only)
        #expect(keyedDay.meals.map(\.name) == listedDay.meals.map(\.name))
        #expect(keyedDay.menuItems.map(\.recipeId) == listedDay.menuItems.map(\.recipeId))
        #expect(!keyedDay.menuItems.isEmpty)
    }

    /// Names written with any HTML entity are read as their characters: an item renamed
    /// "Jalape&ntilde;o corn tortilla &#8211; 6&#8221;" in a copy of the answer. Only eight
    /// entities were known, and the rest were published as written.
    @Test func namesWithAnyEntityAreReadAsTheirCharacters() throws {
        var top = try #require(try JSONSerialization.jsonObject(with: SharedData.load(Self.file)) as? [String: Any])
        var items = try #require(top["items"] as? [String: Any])
        let id = try #require(items.keys.sorted().first)
        var item = try #require(items[id] as? [String: Any])
        item["label"] = "Jalape&ntilde;o corn tortilla &#8211; 6&#8221;"
        items[id] = item
        top["items"] = items
        let parsed = try BonAppetitMenu.parse(JSONSerialization.data(withJSONObject: top), location: "entities.json")
        #expect(parsed.foods.first { $0.id.recipeId == id }?.name == "Jalapeño corn tortilla – 6”")
    }

    @Test func iconsAreCodesByLabelAndCaloriesPerServing() throws {
        let parsed = try parsed()
        let items = try items()
        for food in parsed.foods {
            let item = try #require(items[food.id.recipeId])
            let icons = (item["cor_icon"] as? [String: String] ?? [:]).values.map { $0.lowercased() }
            #expect(Set(food.codes) == Set(icons), "\(food.name)")
            let kcal = ((item["nutrition"] as? [String: Any])?["kcal"] as? String).flatMap(Double.init)
            #expect(food.calories == kcal, "\(food.name)")
            #expect(food.labelBasis == (kcal == nil ? nil : .serving), "\(food.name)")
        }
        // Scrambled eggs (5297213): vegetarian and made without gluten-containing ingredients, 180 kcal.
        let eggs = try #require(parsed.foods.first { $0.id.recipeId == "5297213" })
        #expect(eggs.name == "scrambled eggs")
        #expect(eggs.codes == ["vegetarian", "made without gluten-containing ingredients"])
        #expect(eggs.nutrients == [NutrientValue(key: .calories, name: "Calories", amount: 180, unit: "kcal")])
    }

    @Test func daypartTimesAreTheCafesHours() throws {
        let parsed = try parsed()
        let expected = try dayparts().map { ($0["label"] as? String, $0["starttime"] as? String, $0["endtime"] as? String) }
        #expect(parsed.hours.count == expected.count)
        for (entry, (meal, opens, closes)) in zip(parsed.hours, expected) {
            #expect(entry.restaurant == "Stav Hall")
            #expect(entry.date == ServiceDate("2016-11-22"))
            #expect((entry.meal, entry.opens, entry.closes) == (meal, opens, closes))
            #expect(!entry.isClosed)
        }
        // Lunch by hand from the file: 10:30 to 14:00.
        #expect(parsed.hours.contains { $0.meal == "Lunch" && $0.opens == "10:30" && $0.closes == "14:00" })
    }

    /// The same answer nested one level down (`{"menus": {days, items}}`), its dayparts listed
    /// flat, with one odd item: the same menus, and only the odd item left out and reported.
    @Test func aWrappedAnswerWithAnOddItemReadsTheRest() throws {
        var top = try #require(try JSONSerialization.jsonObject(with: SharedData.load(Self.file)) as? [String: Any])
        var items = try #require(top["items"] as? [String: Any])
        items["5297213"] = ["id": "5297213", "label": 42]
        top["items"] = items
        var days = try #require(top["days"] as? [[String: Any]])
        var cafes = try #require(days[0]["cafes"] as? [String: Any])
        var cafe = try #require(cafes["261"] as? [String: Any])
        cafe["dayparts"] = try dayparts()
        cafes["261"] = cafe
        days[0]["cafes"] = cafes
        top["days"] = days
        let wrapped = try JSONSerialization.data(withJSONObject: ["menus": top])
        let parsed = try BonAppetitMenu.parse(wrapped, location: "wrapped.json")
        let plain = try self.parsed()
        #expect(parsed.problems == ["wrapped.json: item 5297213 has no label (name): left out"])
        #expect(parsed.foods.count == plain.foods.count - 1)
        let occurrences = plain.days[0].menuItems.filter { $0.recipeId == "5297213" }.count
        #expect(parsed.days[0].menuItemCount == plain.days[0].menuItemCount - occurrences)
    }

    @Test func aCafeWithoutDaypartsIsClosedNotAFailure() throws {
        let closed = Data(#"{"days":[{"date":"2016-11-23","cafes":{"261":{"name":"Stav Hall","dayparts":[[]]}}}],"items":{}}"#.utf8)
        let parsed = try BonAppetitMenu.parse(closed, location: "closed.json")
        #expect(parsed.days.map(\.meals.count) == [0])
        #expect(parsed.closedCafes == 1)
        #expect(parsed.hours.map(\.isClosed) == [true])
    }

    @Test func aTruncatedAnswerIsOneLineNamingTheDocument() throws {
        let data = try SharedData.load(Self.file)
        #expect {
            try BonAppetitMenu.parse(data.prefix(data.count / 2), location: "https://cafe.test/api/2/menus")
        } throws: { error in
            "\(error)".contains("https://cafe.test/api/2/menus") && "\(error)".contains("truncated")
        }
    }
}
