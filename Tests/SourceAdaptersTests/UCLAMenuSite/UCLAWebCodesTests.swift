import FoodModel
import SourceAdapters
import SourceReading
import Testing
import TestSupport

@Suite struct UCLAWebCodesTests {
    @Test func knowsTheCodesOfTheLegend() {
        #expect(UCLAWebCodes.lookup("VG") == DietaryCode(code: "VG", label: "Vegan", kind: .dietary, terms: ["vegan"]))
        #expect(UCLAWebCodes.lookup("AEGG") == DietaryCode(code: "AEGG", label: "Eggs", kind: .allergen, terms: ["eggs"]))
        // "Dairy" is milk in the one vocabulary; a high-carbon label is the footprint term, as the
        // live feed's "High-Carbon-Footprint" is.
        #expect(UCLAWebCodes.lookup("AMLK")?.terms == ["milk"])
        #expect(UCLAWebCodes.lookup("HC")?.terms == ["high_carbon"])
        #expect(UCLAWebCodes.lookup("LC")?.kind == .sustainability)
        #expect(UCLAWebCodes.lookup("HC")?.label == "High Carbon Footprint")
        #expect(UCLAWebCodes.lookup("ASES")?.kind == .allergen)
        #expect(UCLAWebCodes.all.count == 15)
        #expect(Set(UCLAWebCodes.all.map(\.code)).count == 15)
    }

    @Test func unknownCodesAreNil() {
        #expect(UCLAWebCodes.lookup("XYZ") == nil)
        #expect(UCLAWebCodes.lookup("vg") == nil)
    }

    @Test func everyCodeOnTheRealPagesIsKnown() throws {
        let day = try UCLAMenuSite.parseOverview(
            SharedData.load(UCLAOverviewTests.path), url: UCLAOverviewTests.path, charset: nil)
        let codes = Set(day.menuItems.flatMap(\.codes))
        #expect(codes.count > 5)
        #expect(codes.allSatisfy { UCLAWebCodes.lookup($0) != nil })
    }
}
