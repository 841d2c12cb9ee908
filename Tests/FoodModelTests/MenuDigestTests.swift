import Basics
@testable import FoodModel
import Foundation
import Testing

/// What the stages after the write know of the menus, built day by day as they stream.
@Suite struct MenuDigestTests {
    private let burger = FoodID(source: "ucla-menu", recipeId: "400317")
    private let fries = FoodID(source: "ucla-menu", recipeId: "061005")

    private func item(_ id: FoodID, _ name: String, codes: [String] = [], description: String? = nil) -> MenuItem {
        MenuItem(source: id.source, recipeId: id.recipeId, name: name, portion: "1", codes: codes,
                 description: description)
    }

    private func day(_ date: String, _ meal: String, _ restaurant: String, _ items: [MenuItem]) -> ServiceDay {
        ServiceDay(date: ServiceDate(date)!, meals: [
            Meal(name: meal, restaurants: [Restaurant(name: restaurant, sections: [Section(name: "Grill", foods: items)])]),
        ])
    }

    @Test func firstAppearancesWinAndCodesAddUp() throws {
        var digest = MenuDigest()
        try digest.add(MenuDigest.Day(day("2026-10-10", "Brunch", "Covel", [
            item(burger, "Bruin Cheeseburger", codes: ["AMLK"], description: "Beef patty"),
            item(fries, "Fries", codes: ["VG", "ZZ"]),
        ])), servedBy: "ucla")
        try digest.add(MenuDigest.Day(day("2026-10-11", "Dinner", "De Neve", [
            item(burger, "Bruin Cheeseburger w/ Fries", codes: ["AWHT"]), item(fries, "Fries", codes: ["ZZ"]),
        ])), servedBy: "ucla")

        #expect(digest.menuItemCount == 4)
        #expect(digest.foods[burger]?.name == "Bruin Cheeseburger")
        #expect(digest.foods[burger]?.description == "Beef patty")
        #expect(digest.foods[burger]?.codes == ["AMLK", "AWHT"])
        #expect(digest.codes["ZZ"]?.count == 2)
        #expect(digest.codes["ZZ"]?.example == "Fries (ucla-menu:061005) on 2026-10-10")
        #expect(digest.mealsByDay == [ServiceDate("2026-10-10")!: ["Brunch"], ServiceDate("2026-10-11")!: ["Dinner"]])
        #expect(digest.restaurantsByDay[ServiceDate("2026-10-11")!] == ["De Neve"])
        let withBurgerPage = Dataset(foods: [burger: Food(id: burger, name: "Bruin Cheeseburger")])
        #expect(digest.foodsWithoutPage(in: withBurgerPage) == [fries])
    }

    /// Items of one food that print what the one before printed add nothing; any other codes or
    /// portion are added, however they alternate.
    @Test func everyCodeAndPortionOfAFoodIsKeptHoweverTheyAlternate() throws {
        var digest = MenuDigest()
        func served(_ codes: [String], _ portion: String?) -> MenuItem {
            MenuItem(source: burger.source, recipeId: burger.recipeId, name: "Bruin Burger", portion: portion, codes: codes)
        }
        try digest.add(MenuDigest.Day(day("2026-10-10", "Lunch", "Covel", [
            served(["V"], "1 cup"), served(["V"], "1 cup"), served(["V"], "2 cups"), served(["V", "GF"], "1 cup"),
            served(["V"], "1 cup"), served([], nil), served(["V"], "3 oz"),
        ])), servedBy: "ucla")
        #expect(digest.foods[burger]?.codes == ["V", "GF"])
        #expect(digest.foods[burger]?.portions == ["1 cup", "2 cups", "3 oz"])
        #expect(digest.codes["V"]?.count == 6)
        #expect(digest.codes["GF"]?.count == 1)
        #expect(digest.menuItemCount == 7)
    }

    /// Across days a food's prints are compared with those it was last taken in with, kept for
    /// every food in one buffer: prints that grow, shrink and come back, for two foods over
    /// three years of days (past the point where the buffer is laid out again), still add
    /// every code and portion to their own food and none to the other.
    @Test func everyCodeAndPortionIsKeptAcrossDaysWhateverTheirLengths() throws {
        var digest = MenuDigest()
        var start = try #require(ServiceDate("2019-01-01"))
        for index in 0..<1_095 {
            let long = String(repeating: "x", count: 40 + index % 7)
            let burgerCodes = index % 3 == 0 ? ["V", "GF", "B\(index % 5)", long] : ["V"]
            let friesPortion = index % 2 == 0 ? "1 cup" : "\(index % 4) oz"
            try digest.add(MenuDigest.Day(ServiceDay(date: start, meals: [
                Meal(name: "Lunch", restaurants: [Restaurant(name: "Covel", sections: [Section(name: "Grill", foods: [
                    MenuItem(source: burger.source, recipeId: burger.recipeId, name: "Burger", portion: "1",
                             codes: burgerCodes),
                    MenuItem(source: fries.source, recipeId: fries.recipeId, name: "Fries", portion: friesPortion,
                             codes: ["VG"]),
                ])])]),
            ])), servedBy: "ucla")
            start = start.adding(days: 1)
        }
        let longCodes = Set((0..<7).map { String(repeating: "x", count: 40 + $0) })
        #expect(digest.foods[burger]?.codes == Set(["V", "GF", "B0", "B1", "B2", "B3", "B4"]).union(longCodes))
        #expect(digest.foods[burger]?.portions == ["1"])
        #expect(digest.foods[fries]?.codes == ["VG"])
        #expect(digest.foods[fries]?.portions == ["1 cup", "1 oz", "3 oz"])
        #expect(digest.menuItemCount == 2_190)
    }

    /// The prints each food was last taken in with, all in one buffer, answer as an array of
    /// bytes for each food would: through prints that grow (set at the buffer's end), shrink
    /// (set in place) and come back, and past the point where the buffer is laid out again.
    @Test func lastPrintsAnswerAsEachFoodsOwnBytesWould() {
        var kept = MenuDigest.LastPrints()
        var expected: [[UInt8]] = []
        var state: UInt64 = 12_345
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        // Few shapes of prints, shared by the foods, so that a span pointing at another food's
        // bytes would often find the same bytes there and answer wrongly.
        let shapes: [[UInt8]] = (0..<6).map { shape in Array(repeating: UInt8(65 + shape), count: 3 + 37 * (shape % 3)) }
        for _ in 0..<40 {
            kept.addFood()
            expected.append([])
        }
        var mismatches = 0
        for _ in 0..<50_000 {
            let food = next(expected.count)
            let prints = shapes[next(shapes.count)]
            let same = prints.withUnsafeBytes { kept.same($0, as: food) }
            if same != (prints == expected[food]) { mismatches += 1 }
            if !same {
                prints.withUnsafeBytes { kept.keep($0, as: food) }
                expected[food] = prints
            }
        }
        #expect(mismatches == 0)
    }

    /// Two sources serving the same day: the day's meals and restaurants are the union, each
    /// meal listed once, in the order first seen. A restaurant whose block holds no item is not
    /// counted as having a menu: that is what a page read wrong looks like.
    @Test func aDaySeenTwiceKeepsEveryMealOnce() throws {
        var digest = MenuDigest()
        try digest.add(MenuDigest.Day(day("2026-10-10", "Brunch", "Covel", [item(burger, "Bruin Cheeseburger")])), servedBy: "ucla")
        try digest.add(MenuDigest.Day(ServiceDay(date: ServiceDate("2026-10-10")!, meals: [
            Meal(name: "Brunch", restaurants: [Restaurant(name: "Crossroads", sections: [])]),
            Meal(name: "Dinner", restaurants: [
                Restaurant(name: "Crossroads", sections: [Section(name: "Grill", foods: [item(fries, "Fries")])]),
                Restaurant(name: "Feast", sections: [Section(name: "Wok", foods: [])]),
            ]),
        ])), servedBy: "ucla")
        #expect(digest.mealsByDay[ServiceDate("2026-10-10")!] == ["Brunch", "Dinner"])
        #expect(digest.restaurantsByDay[ServiceDate("2026-10-10")!] == ["Covel", "Crossroads"])
    }

    /// The servings the labelled-share check weighs are the pipeline source's that served the
    /// day, whatever platform its items name: two campuses of one platform stay apart, and a
    /// day of one source served in two partitions adds up.
    @Test func servingsAreCountedPerSourceOfThePipeline() throws {
        var digest = MenuDigest()
        let date = ServiceDate("2026-10-10")!
        try digest.add(MenuDigest.Day(day("2026-10-10", "Lunch", "Covel",
                                      [item(burger, "Burger"), item(burger, "Burger"), item(fries, "Fries")])),
                   servedBy: "campus-a")
        try digest.add(MenuDigest.Day(day("2026-10-10", "Lunch", "Commons", [item(fries, "Fries")])), servedBy: "campus-b")
        try digest.add(MenuDigest.Day(day("2026-10-10", "Dinner", "Covel", [item(fries, "Fries")])), servedBy: "campus-a")
        let servings = digest.servings[date] ?? [:]
        #expect(servings.keys.sorted() == ["campus-a", "campus-b"])
        #expect(servings["campus-a"]?.map(\.items).reduce(0, +) == 4)
        #expect(servings["campus-b"]?.map(\.items) == [1])
    }

    /// A day is gathered apart (`MenuDigest.Day`) and added in its turn: its foods take the
    /// digest's numbers in the order first served over all days, its servings are listed by
    /// those numbers whatever order the day served them in, and a code's example stays the first
    /// item that printed it, on the first day.
    @Test func daysGatheredApartAddUpInTheirOrder() throws {
        let salad = FoodID(source: "ucla-menu", recipeId: "140751")
        var digest = MenuDigest()
        try digest.add(MenuDigest.Day(day("2026-10-10", "Lunch", "Covel", [
            item(burger, "Burger", codes: ["AMLK"]), item(fries, "Fries", codes: ["VG"]),
        ])), servedBy: "ucla")
        try digest.add(MenuDigest.Day(day("2026-10-11", "Lunch", "Covel", [
            item(salad, "Salad", codes: ["VG"]), item(fries, "Fries", codes: ["VG"]), item(salad, "Salad", codes: ["VG"]),
            item(burger, "Burger", codes: ["AMLK", "AWHT"]),
        ])), servedBy: "ucla")

        #expect(digest.foodOrder == [burger, fries, salad])
        #expect(digest.menuItemCount == 6)
        // Burger 0, fries 1, salad 2: listed by number, with how many items served each.
        let second = digest.servings[ServiceDate("2026-10-11")!]?["ucla"] ?? []
        #expect(second.map(\.food) == [0, 1, 2])
        #expect(second.map(\.items) == [1, 1, 2])
        #expect(digest.codes["VG"]?.count == 4)
        #expect(digest.codes["VG"]?.example == "Fries (ucla-menu:061005) on 2026-10-10")
        #expect(digest.codes["AWHT"]?.example == "Burger (ucla-menu:400317) on 2026-10-11")
        #expect(digest.foods[burger]?.codes == ["AMLK", "AWHT"])
    }

    /// A day's share kept as bytes (`MenuDigestDayBytes`, the parse cache's form) adds up as
    /// the share it was made from: the same values as `daysGatheredApartAddUpInTheirOrder`,
    /// with a description, a portion and a meal of two restaurants carried too.
    @Test func aShareReadBackFromItsBytesAddsUpAsGathered() throws {
        let salad = FoodID(source: "ucla-menu", recipeId: "140751")
        let first = day("2026-10-10", "Lunch", "Covel", [
            item(burger, "Burger", codes: ["AMLK"], description: "Beef patty"), item(fries, "Fries", codes: ["VG"]),
        ])
        var second = day("2026-10-11", "Lunch", "Covel", [
            item(salad, "Salad", codes: ["VG"]), item(fries, "Fries", codes: ["VG"]), item(salad, "Salad", codes: ["VG"]),
            item(burger, "Burger", codes: ["AMLK", "AWHT"]),
        ])
        second.meals[0].restaurants.append(Restaurant(name: "De Neve", sections: [
            Section(name: "Flex Bar", foods: [MenuItem(source: "ucla-menu", recipeId: "061005", name: "Fries",
                                                       portion: "4 oz", codes: [])]),
        ]))
        var digest = MenuDigest()
        for served in [first, second] {
            let bytes = MenuDigestDayBytes.encode(MenuDigest.Day(served))
            try digest.add(try MenuDigestDayBytes.decode(bytes), servedBy: "ucla")
        }

        #expect(digest.foodOrder == [burger, fries, salad])
        #expect(digest.menuItemCount == 7)
        let servings = digest.servings[ServiceDate("2026-10-11")!]?["ucla"] ?? []
        #expect(servings.map(\.food) == [0, 1, 2])
        #expect(servings.map(\.items) == [1, 2, 2])
        #expect(digest.codes["VG"]?.count == 4)
        #expect(digest.codes["VG"]?.example == "Fries (ucla-menu:061005) on 2026-10-10")
        #expect(digest.codes["AWHT"]?.example == "Burger (ucla-menu:400317) on 2026-10-11")
        #expect(digest.foods[burger]?.codes == ["AMLK", "AWHT"])
        #expect(digest.foods[burger]?.description == "Beef patty")
        #expect(digest.foods[fries]?.portions == ["1", "4 oz"])
        #expect(digest.restaurantsByDay[ServiceDate("2026-10-11")!] == ["Covel", "De Neve"])
        #expect(digest.mealsByDay[ServiceDate("2026-10-11")!] == ["Lunch"])
    }

    /// A food printed the same way day after day is passed over by its bytes once known, but a
    /// day that prints it otherwise still adds its codes and portion, as does a day after it
    /// that prints it as before and then a third way.
    @Test func aFoodPrintedOtherwiseOnOneDayAddsThatDaysCodes() throws {
        var digest = MenuDigest()
        let prints: [(date: String, codes: [String], portion: String)] = [
            ("2026-10-10", ["V"], "1 cup"), ("2026-10-11", ["V"], "1 cup"), ("2026-10-12", ["V", "GF"], "2 cups"),
            ("2026-10-13", ["V"], "1 cup"), ("2026-10-14", ["VG"], "1 cup"),
        ]
        for print in prints {
            let served = MenuItem(source: fries.source, recipeId: fries.recipeId, name: "Fries", portion: print.portion,
                                  codes: print.codes)
            let share = MenuDigest.Day(day(print.date, "Lunch", "Covel", [served]))
            try digest.add(MenuDigestDayBytes.decode(MenuDigestDayBytes.encode(share)), servedBy: "ucla")
        }
        #expect(digest.foods[fries]?.codes == ["V", "GF", "VG"])
        #expect(digest.foods[fries]?.portions == ["1 cup", "2 cups"])
        #expect(digest.codes["V"]?.count == 4)
        #expect(digest.menuItemCount == 5)
    }

    /// A share laid out field by field as the parse cache keeps it: the date, meals,
    /// restaurants and item count, then each food (id, name, description, items, prints), then
    /// each code (code, count, first example). Foods or codes that are not a share's are refused
    /// when the share is read back, before anything is added: a food served by no item, a code
    /// printed no time, more foods than the bytes hold, items past what a digest counts.
    @Test func aShareWhoseFoodsOrCodesAreNotAShareIsNotReadBack() throws {
        func share(items: Int = 1, codeCount: Int = 1, foods: Int = 1) -> Data {
            var output = FieldWriter()
            output.put("2026-10-10")
            output.put(["Lunch"])
            output.put(["Covel"])
            output.put(1)
            output.put(foods)
            output.put("ucla-menu")
            output.put("400317")
            output.put("Burger")
            output.put(nil as String?)
            output.put(items)
            output.put(1)
            output.put(["AMLK"])
            output.put("1" as String?)
            output.put(1)
            output.put("AMLK")
            output.put(codeCount)
            output.put("Burger (ucla-menu:400317) on 2026-10-10")
            return Data(output.bytes)
        }
        let gathered = MenuDigest.Day(day("2026-10-10", "Lunch", "Covel", [item(burger, "Burger", codes: ["AMLK"])]))
        #expect(MenuDigestDayBytes.encode(gathered) == share())
        var digest = MenuDigest()
        try digest.add(MenuDigestDayBytes.decode(share()), servedBy: "ucla")
        #expect(digest.foodOrder == [burger])
        #expect(digest.foods[burger]?.codes == ["AMLK"])
        #expect(digest.codes["AMLK"]?.count == 1)
        #expect(digest.codes["AMLK"]?.example == "Burger (ucla-menu:400317) on 2026-10-10")
        #expect(throws: Failure.self) { try MenuDigestDayBytes.decode(share(items: 0)) }
        #expect(throws: Failure.self) { try MenuDigestDayBytes.decode(share(codeCount: 0)) }
        #expect(throws: Failure.self) { try MenuDigestDayBytes.decode(share(foods: 2)) }
        #expect(throws: Failure.self) { try MenuDigestDayBytes.decode(share(items: Int(Int32.max) + 1)) }
    }

    /// Bytes cut short are a `damagedBytes` failure, never a share.
    @Test func aShareCutShortIsNotReadBack() throws {
        let bytes = MenuDigestDayBytes.encode(MenuDigest.Day(day("2026-10-10", "Lunch", "Covel", [
            item(burger, "Burger", codes: ["AMLK"]),
        ])))
        #expect(throws: Failure.self) { try MenuDigestDayBytes.decode(bytes.prefix(bytes.count - 3)) }
        #expect(throws: Failure.self) { try MenuDigestDayBytes.decode(bytes + Data([0])) }
    }
}
