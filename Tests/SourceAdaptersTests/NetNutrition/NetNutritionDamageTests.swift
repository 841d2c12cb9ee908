import Fetching
import FoodModel
import Foundation
import Pipeline
import SourceAdapters
import Testing
import TestSupport

/// A NetNutrition label cut short inside its table is damaged, not a shorter label: its food
/// keeps what was read and the partition warns, naming the food and the file. The real labels of
/// `../shared/data` are cut as a transfer or a save cut off would leave them; what each keeps was
/// read off the HTML by hand.
@Suite struct NetNutritionDamageTests {
    static let uiuc = "netnutrition-2026/uiuc-label-122098028.html"
    static let duke = "netnutrition-2025/duke-label-egg-bite.html"

    /// The label `bytes` saved as `{id}.html` in a folder of its own, harvested as a run would.
    private func harvest(_ bytes: Data, id: String) async throws -> (food: Food, warnings: [String], file: String) {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("\(id).html")
        try bytes.write(to: file)
        let source = SourceSpec(name: "labels", adapter: NetNutritionLabelAdapter(), location: .directory(folder))
        let harvester = try source.adapter.harvester(for: source, run: HarvestSetup(dates: nil, today: ServiceDate("2026-08-20")!))
        #expect(harvester.partitions == [id])
        let documents = DocumentLog(upstream: DirectorySource(root: URL(fileURLWithPath: "/"), confinedTo: [folder]),
                                    known: nil, clock: .system)
        let result = try await harvester.harvest(partition: id, from: documents,
                                                 run: RunContext(scratch: folder.appendingPathComponent("scratch")))
        let food = try #require(result.dataset.foods[FoodID(source: "netnutrition", recipeId: id)])
        return (food, result.warnings, file.path)
    }

    /// The first `count` bytes of a real label.
    private func cut(_ file: String, to count: Int) throws -> Data {
        try SharedData.load(file).prefix(count)
    }

    /// UIUC's label cut at half its bytes (5,914 of 11,828), inside the table of its Potassium
    /// row: the nine rows before it are read (the calories cell and its neighbour, then Total
    /// Fat to Sodium), and the rest of the label (Potassium to Iron, the footnote, ingredients,
    /// allergens) is missing, which the warning says.
    @Test func uiucLabelCutInHalfWarnsNamingTheFood() async throws {
        let whole = try SharedData.load(Self.uiuc)
        #expect(whole.count == 11_828)
        let read = try await harvest(try cut(Self.uiuc, to: whole.count / 2), id: "122098028")
        #expect(read.food.name == "Blondie Bars")
        #expect(read.food.nutrients.map(\.name) == [
            "Calories", "Calories from Fat", "Total Fat", "Saturated Fat", "Trans Fat", "Polyunsaturated Fat",
            "Monounsaturated Fat", "Cholesterol", "Sodium",
        ])
        #expect(read.food.ingredients == nil)
        #expect(read.warnings == [
            "label of Blondie Bars (netnutrition:122098028) is damaged: \(read.file) ends inside the label's table "
                + "(cut short), so the rows after the cut are missing; kept as read: 9 nutrient(s), no ingredients, "
                + "no allergens; save the label again",
        ])
    }

    /// Duke's label, in divs, cut at half its bytes (5,422 of 10,845): inside the row after
    /// Dietary Fiber's. Eight rows are read, Calories to Dietary Fiber.
    @Test func dukeLabelCutInHalfWarnsNamingTheFood() async throws {
        let whole = try SharedData.load(Self.duke)
        #expect(whole.count == 10_845)
        let read = try await harvest(try cut(Self.duke, to: whole.count / 2), id: "4711")
        #expect(read.food.name == "Bacon Swiss and Arugula Egg Bite")
        #expect(read.food.nutrients.map(\.name) == [
            "Calories", "Total Fat", "Saturated Fat", "Trans Fat", "Cholesterol", "Sodium", "Total Carbohydrate",
            "Dietary Fiber",
        ])
        #expect(read.warnings.count == 1)
        #expect(read.warnings.first?.hasPrefix("label of Bacon Swiss and Arugula Egg Bite (netnutrition:4711) is damaged: "
                                                + "\(read.file) ends inside the label's table") == true,
                "\(read.warnings)")
        #expect(read.warnings.first?.contains("kept as read: 8 nutrient(s), no ingredients, no allergens") == true)
    }

    /// Cut after the whole row of UIUC's footnote, at a line's end: every nutrient row was read
    /// (16: Vitamin A and C print no amount), but the ingredients and the "Contains" list that
    /// follow are lost. The count of rows does not show it; the table that never closes does.
    @Test func aLabelCutAfterItsNutrientsStillWarns() async throws {
        let page = String(decoding: try SharedData.load(Self.uiuc), as: UTF8.self)
        let footnote = try #require(page.range(of: "class=\"cbo_nn_LabelDisclaimer\""))
        let rowEnd = try #require(page.range(of: "</tr>\n", range: footnote.upperBound..<page.endIndex))
        let read = try await harvest(Data(page[..<rowEnd.upperBound].utf8), id: "122098028")
        #expect(read.food.nutrients.count == 16)
        #expect(read.food.allergens.isEmpty)
        #expect(read.warnings.count == 1)
        #expect(read.warnings.first?.contains("kept as read: 16 nutrient(s), no ingredients, no allergens") == true,
                "\(read.warnings)")
    }

    /// The whole labels, and UIUC's with its nutrient rows taken out whole (a layout that
    /// changed, which the checks report as a label without nutrients): no damage is claimed.
    @Test func wholeLabelsAreNotCalledDamaged() async throws {
        #expect(try await harvest(try SharedData.load(Self.uiuc), id: "122098028").warnings.isEmpty)
        #expect(try await harvest(try SharedData.load(Self.duke), id: "4711").warnings.isEmpty)
        let page = String(decoding: try SharedData.load(Self.uiuc), as: UTF8.self)
        let shorter = try #require(MenuPageEdits.withoutNutrientRows(page))
        let read = try await harvest(Data(shorter.utf8), id: "5000")
        #expect(read.food.nutrients.isEmpty)
        #expect(read.food.allergens == ["Corn", "Eggs", "Gluten", "Milk", "Soy", "Wheat"])
        #expect(read.warnings.isEmpty)
    }
}
