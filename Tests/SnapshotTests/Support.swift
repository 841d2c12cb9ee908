import Basics
import FoodModel
import Foundation
import Snapshot

func temporaryFolder(_ name: String = #function) throws -> URL {
    let safe = name.filter { $0.isLetter || $0.isNumber }
    let url = FileManager.default.temporaryDirectory
        .appendingPathComponent("commissary-snapshot-\(safe)-\(UUID().uuidString.prefix(8))")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// A small dataset whose every row is known: two days, one food seen three times, one food
/// without its page, an unknown code, one recipe with two ingredient lines.
func smallDataset() -> Dataset {
    let burger = FoodID(source: "ucla-menu", recipeId: "400317")
    let fries = FoodID(source: "ucla-menu", recipeId: "061005")
    func item(_ id: FoodID, _ name: String, codes: [String] = []) -> MenuItem {
        MenuItem(source: id.source, recipeId: id.recipeId, name: name, portion: "1", codes: codes)
    }
    let saturday = ServiceDay(date: ServiceDate("2026-10-10")!, meals: [
        Meal(name: "Brunch", restaurants: [
            Restaurant(name: "Covel", sections: [Section(name: "Grill", foods: [item(burger, "Bruin Cheeseburger")])]),
            Restaurant(name: "De Neve", sections: [Section(name: "Grill", foods: [
                item(burger, "Bruin Cheeseburger w/ Fries"), item(fries, "Fries", codes: ["VG", "ZZ"]),
            ])]),
        ]),
    ])
    let sunday = ServiceDay(date: ServiceDate("2026-10-11")!, meals: [
        Meal(name: "Dinner", restaurants: [
            Restaurant(name: "Covel", sections: [Section(name: "Grill", foods: [item(burger, "Bruin Cheeseburger")])]),
        ]),
    ])
    let burgerPage = Food(
        id: burger, name: "Bruin Cheeseburger", servingSize: "1 each", calories: 459,
        nutrients: [
            NutrientValue(key: .totalFat, name: "Total Fat", amount: 21.3, unit: "g", printedDailyValuePercent: 33),
            NutrientValue(key: .vitaminA, name: "Vitamin A", amount: nil, unit: nil, printedDailyValuePercent: 11),
        ],
        ingredients: "Beef, Bun", allergens: ["Milk", "Wheat"], codes: ["AMLK", "AWHT"])
    let recipe = Recipe(
        id: RecipeID(source: "mealdb", id: "52771"), name: "Spicy Arrabiata Penne", category: "Vegetarian",
        area: "Italian", steps: ["Boil water.", "Cook penne."], tags: ["Pasta", "Curry"],
        ingredients: [
            RecipeIngredient(position: 1, ingredient: Ingredient(name: "penne rigate"),
                             measure: Measure(raw: "1 pound", kind: .quantity, quantity: Rational(1),
                                              unit: "lb", unitSystem: "us", confidence: 1)),
            RecipeIngredient(position: 2, ingredient: Ingredient(name: "Olive Oil"),
                             measure: Measure(raw: "1/4 cup", kind: .quantity, quantity: Rational(1, 4),
                                              unit: "cup", unitSystem: "us", confidence: 1)),
        ])
    return Dataset(serviceDays: [saturday, sunday], foods: [burger: burgerPage],
                   hours: [HoursEntry(restaurant: "Covel", date: ServiceDate("2026-10-10"), meal: "Brunch",
                                      opens: "9:00am", closes: "2:00pm", isClosed: false)],
                   recipes: [recipe.id: recipe])
}

let knownCodes = [
    DietaryCode(code: "VG", label: "Vegan Menu Option", kind: .dietary),
    DietaryCode(code: "AMLK", label: "Contains Dairy", kind: .allergen),
    DietaryCode(code: "AWHT", label: "Contains Wheat", kind: .allergen),
]

func run(_ id: String) -> RunRecord {
    RunRecord(runId: id, pipeline: "demo", startedAt: "2026-10-12T02:00:00Z", codeVersion: "test",
              arguments: ["run", "demo.yml"], partitions: 2, sources: ["test"], licence: "CC0-1.0",
              inputsSHA256: String(repeating: "0", count: 64))
}

/// `day` as the parse cache hands it over: `bytes` written to a file of their own in `folder`, with
/// the day's outline and digest, to be checked against `sha256` (the bytes' own by default).
func dayKeptAsBytes(_ bytes: Data, of day: ServiceDay, sha256: String? = nil, in folder: URL) throws -> DayToWrite {
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let file = folder.appendingPathComponent("day-\(UUID().uuidString).bytes")
    // After a few bytes of something else, so that the day is read from where it lies.
    try (Data("entry head".utf8) + bytes).write(to: file)
    return DayToWrite(keptAt: FileSpan(path: file.path, offset: 10, count: bytes.count), outline: day.outline,
                      contentDigest: DayToWrite(day).contentDigest, bytesSHA256: sha256 ?? sha256Hex(bytes))
}

/// Builds a staging snapshot of `dataset` in `folder`, continuing `previous` when given;
/// `keptAsBytes`: each day handed over as the parse cache keeps it (its bytes and outline);
/// `review`: the nutrition review's rows, written as the check stage writes them;
/// `foodInputs` and `checks`: the digest of the food inputs and the outcomes recorded.
func stage(_ dataset: Dataset, in folder: URL, runId: String = "r1", continuing previous: URL? = nil,
           keptAsBytes: Bool = false, review: (agreements: [NutrientAgreementRow], flags: [FoodFlagRow])? = nil,
           foodInputs: String? = nil,
           checks: [CheckOutcome] = [CheckOutcome(name: "min_menu_items", severity: .error, passed: true, value: 4,
                                                  message: "4 items")]) throws
    -> StagingSnapshot {
    let staging = try StagingSnapshot(creatingAt: folder.appendingPathComponent("staging/\(runId).sqlite"),
                                      continuing: previous.map(LatestSnapshot.init(reading:)))
    // As a run streams them: the days one at a time, in date order, then the rest.
    var digest = MenuDigest()
    for day in dataset.serviceDays.sorted(by: { $0.date < $1.date }) {
        try staging.append(keptAsBytes ? try dayKeptAsBytes(ServiceDayBytes.encode([day]), of: day, in: folder) : DayToWrite(day))
        try digest.add(MenuDigest.Day(day), servedBy: "test")
    }
    try staging.finish(dataset, menus: digest, codes: knownCodes, foodInputs: foodInputs)
    if let review { try staging.write(agreements: review.agreements, flags: review.flags) }
    try staging.record(run: run(runId), checks: checks, documents: [])
    return staging
}
