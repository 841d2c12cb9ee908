import Foundation

/// One real document of a page format, and a name printed in it (found in the file by hand) that
/// what the format reads must hold.
public struct AdapterSample: Sendable {
    public var file: URL
    public var date: String?
    public var holds: String
    /// The bytes handed to the format: the file's, unless the format reads one part of it.
    public var body: @Sendable (URL) throws -> Data

    public init(file: URL, date: String? = nil, holds: String,
                body: @escaping @Sendable (URL) throws -> Data = { try Data(contentsOf: $0) }) {
        self.file = file
        self.date = date
        self.holds = holds
        self.body = body
    }
}

/// A real sample of every page format of every adapter, by adapter and format name: a new
/// adapter brings its own, or `AdapterSeamTests` (which reads each) and `ParseAnyBytesTests`
/// (which mutates each) fail. Here, in TestSupport, because both targets read them.
public enum AdapterSamples {
    public static let all: [String: [String: AdapterSample]] = [
        "ucla-menu-site": [
            "overview": AdapterSample(file: shared("ucla-menu-2019/overview-2019-10-13-sunday.html"), holds: "Egg White"),
            "detailed": AdapterSample(file: shared("ucla-menu-2021/detailed-menu-fragment.html"), holds: "Italian Minestrone Soup"),
            "recipe": AdapterSample(file: shared("ucla-menu-2021/recipe-400317-bruin-cheeseburger-fragment.html"),
                                    holds: "Bruin Cheeseburger"),
            "hours": AdapterSample(file: shared("ucla-hours-2014/dining-hall-hours-by-day.html"), holds: "Rendezvous"),
        ],
        "foodpro": [
            "menu": AdapterSample(file: shared("foodpro-berkeley-2016/todaysentrees.html"), holds: "Brown Rice"),
            "ucla-grid": AdapterSample(
                file: Paths.packageRoot.appendingPathComponent("Tests/Fixtures/foodpro-ucla/default-2016-06-20-meal-1.html"),
                holds: "Cream of Wheat"),
            "label": AdapterSample(file: shared("foodpro-berkeley-2016/label-153002.html"), holds: "Brown Rice"),
        ],
        "ucla-dataset": [
            "day": AdapterSample(file: shared("ucla-dataset-2016/2016-07-25.json"), date: "2016-07-25", holds: "Bean Fasoulatha"),
        ],
        "mealdb-dump": [
            "meals": AdapterSample(file: Paths.mealDump, holds: "Garides Saganaki"),
        ],
        "mealdb-api": [
            "meals": AdapterSample(file: shared("themealdb/responses/search-3-meals.json"), holds: "Chocolate Gateau"),
        ],
        "ucla-jamix": [
            "menus": AdapterSample(file: shared("ucla-jamix-2025/nights/2025-04-10/menus/2025-04-10.json"), date: "2025-04-10",
                                   holds: "BC BREAKFAST BURRITO BYO"),
            // The saved ingredient documents are one file keyed by id; the feed serves each alone,
            // as `{id}.json`: the sample is the one of id 5640.
            "ingredient": AdapterSample(file: shared("ucla-jamix-2025/5640.json"), holds: "Soy Milk") { url in
                let all = try JSONSerialization.jsonObject(
                    with: Data(contentsOf: shared("ucla-jamix-2025/ingredients-2025-11-07.json"))) as? [String: Any]
                return try JSONSerialization.data(withJSONObject: all?[url.deletingPathExtension().lastPathComponent] ?? [:])
            },
            "recipe": AdapterSample(file: shared("ucla-jamix-2025/recipes/1007.json"), holds: "Tuna & Lentil Hummus Stacker"),
        ],
        "nutrislice": [
            "day": AdapterSample(file: shared("nutrislice-2026/wisc-lowell-market-breakfast-2026-03-23.json"),
                                 holds: "Iced Chocolate Cake Donut"),
        ],
        "dineoncampus": [
            "menu": AdapterSample(file: shared("dineoncampus-2019/location-menu-2019-07-08.json"), holds: "Hamburger on Bun"),
        ],
        "bonappetit": [
            "menus": AdapterSample(file: shared("bonappetit-2016/261-stav-2016-11-22.json"), holds: "scrambled eggs"),
            "cafes": AdapterSample(file: shared("bonappetit-2022/penn-cafes-2022-10-08.json"), holds: "English House"),
        ],
        "netnutrition-label": [
            "label": AdapterSample(file: shared("netnutrition-2026/uiuc-label-122098028.html"), holds: "Blondie Bars"),
        ],
    ]

    private static func shared(_ path: String) -> URL {
        Paths.sharedData.appendingPathComponent(path)
    }
}
