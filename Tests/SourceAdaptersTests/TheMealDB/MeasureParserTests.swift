import FoodModel
import Foundation
import SourceAdapters
import Testing

/// One real measure string from meals-dump-442.json and what it means, read by hand.
struct MeasureCase: CustomTestStringConvertible, Sendable {
    let raw: String
    let kind: Measure.Kind
    let quantity: String?
    let maximum: String?
    let unit: String?

    init(_ raw: String, _ kind: Measure.Kind, _ quantity: String? = nil, _ unit: String? = nil,
         max maximum: String? = nil) {
        self.raw = raw
        self.kind = kind
        self.quantity = quantity
        self.maximum = maximum
        self.unit = unit
    }

    var testDescription: String { "\"\(raw)\"" }
}

/// Every string below occurs in the dump (checked with grep); the expected readings were worked
/// out by hand from the decisions documented on `MeasureParser`.
let realMeasures: [MeasureCase] = [
    // Plain number + unit, in the spellings the dump uses.
    .init("1 tsp", .quantity, "1", "tsp"),
    .init("1 tablespoon", .quantity, "1", "tbsp"),
    .init("2 tbs", .quantity, "2", "tbsp"),
    .init("2 tblsp", .quantity, "2", "tbsp"),
    .init("1 tbls", .quantity, "1", "tbsp"),
    .init("3  tablespoons", .quantity, "3", "tbsp"),
    .init("2 tablespoons", .quantity, "2", "tbsp"),
    .init("1/2 teaspoon", .quantity, "1/2", "tsp"),
    .init("1 cup", .quantity, "1", "cup"),
    .init("1 lb", .quantity, "1", "lb"),
    .init("2 Lbs", .quantity, "2", "lb"),
    .init("16 ounces", .quantity, "16", "oz"),
    .init("4 oz", .quantity, "4", "oz"),
    .init("1 L", .quantity, "1", "l"),
    .init("1 Litre", .quantity, "1", "l"),
    .init("100 ml", .quantity, "100", "ml"),
    .init("1 kg", .quantity, "1", "kg"),
    .init("2 pint", .quantity, "2", "pint"),
    .init("4 qt", .quantity, "4", "quart"),
    // Number glued to the unit.
    .init("100g", .quantity, "100", "g"),
    .init("1kg", .quantity, "1", "kg"),
    .init("1tbsp", .quantity, "1", "tbsp"),
    .init("3cm piece", .quantity, "3", "cm"),
    // Fractions, mixed numbers, unicode fractions, decimals.
    .init("1/3 cup", .quantity, "1/3", "cup"),
    .init("3/4 cup", .quantity, "3/4", "cup"),
    .init("2/3 Cup", .quantity, "2/3", "cup"),
    .init("1/2 tbs", .quantity, "1/2", "tbsp"),
    .init("½ tsp", .quantity, "1/2", "tsp"),
    .init("1 ½ tbsp", .quantity, "3/2", "tbsp"),
    .init("1½ tbsp", .quantity, "3/2", "tbsp"),
    .init("1½ kg", .quantity, "3/2", "kg"),
    .init("1 1/2 cups", .quantity, "3/2", "cup"),
    .init("1 1/4 cup", .quantity, "5/4", "cup"),
    .init("1 1/2 L", .quantity, "3/2", "l"),
    .init("2-1/2 cups", .quantity, "5/2", "cup"),
    .init("1-⅓ cups", .quantity, "4/3", "cup"),
    .init("1-½ cups", .quantity, "3/2", "cup"),
    .init("1.5kg", .quantity, "3/2", "kg"),
    .init("1.25kg", .quantity, "5/4", "kg"),
    .init("0.5", .count, "1/2"),
    .init("0.25", .count, "1/4"),
    .init("1/2", .count, "1/2"),
    // Ranges.
    .init("1-2tbsp", .quantity, "1", "tbsp", max: "2"),
    .init("2-3 tbsp", .quantity, "2", "tbsp", max: "3"),
    .init("4-5 pound", .quantity, "4", "lb", max: "5"),
    .init("6-8 slices", .count, "6", "slice", max: "8"),
    .init("4-6", .count, "4", max: "6"),
    // Dual units and parenthesised equivalents keep the metric amount.
    .init("75g/3oz", .quantity, "75", "g"),
    .init("25g/1oz", .quantity, "25", "g"),
    .init("175g/6oz", .quantity, "175", "g"),
    .init("50g/1¾oz", .quantity, "50", "g"),
    .init("6oz/180g", .quantity, "180", "g"),
    .init("350ml/12fl", .quantity, "350", "ml"),
    .init("50ml/2fl oz", .quantity, "50", "ml"),
    .init("650g/1lb 8 oz", .quantity, "650", "g"),
    .init("4 tablespoons (55 grams)", .quantity, "55", "g"),
    .init("12 ounces (340g)", .quantity, "340", "g"),
    .init("1 (400g) tin", .quantity, "400", "g"),
    .init("1 (200g) pack", .quantity, "200", "g"),
    .init("2 (460g)", .quantity, "460", "g"),
    .init("3 rashers (100g) chopped dry-cured", .quantity, "100", "g"),
    // Sizes of each item, multiplied out for weights and volumes.
    .init("2 x 400g", .quantity, "800", "g"),
    .init("2 x 400g tins", .quantity, "800", "g"),
    .init("3 400g Cans", .quantity, "1200", "g"),
    .init("1 – 14-ounce can", .quantity, "14", "oz"),
    .init("3 x 7.5cm", .count, "3"),
    .init("14 oz jar", .quantity, "14", "oz"),
    .init("400g can", .quantity, "400", "g"),
    .init("8-ounce sliced", .quantity, "8", "oz"),
    // Kitchen measures with a number are quantities.
    .init("1 pinch", .quantity, "1", "pinch"),
    .init("2 pinches", .quantity, "2", "pinch"),
    .init("1 Handfull", .quantity, "1", "handful"),
    .init("1 shot", .quantity, "1", "shot"),
    .init("5 drops", .quantity, "5", "drop"),
    // Counts: bare numbers, items, descriptors.
    .init("1", .count, "1"),
    .init("1 chopped", .count, "1"),
    .init("1 large", .count, "1"),
    .init("2 free-range", .count, "2"),
    .init("1 chopped into ½-inch pieces", .count, "1"),
    .init("3 cloves", .count, "3", "clove"),
    .init("2 cloves minced", .count, "2", "clove"),
    .init("1 clove peeled crushed", .count, "1", "clove"),
    .init("6 medium cloves sliced", .count, "6", "clove"),
    .init("4 thick slices", .count, "4", "slice"),
    .init("1  bunch", .count, "1", "bunch"),
    .init("4 sprigs", .count, "4", "sprig"),
    .init("2 strips", .count, "2", "strip"),
    .init("1 can", .count, "1", "can"),
    .init("1 Packet", .count, "1", "pack"),
    .init("1/2 bag", .count, "1/2", "bag"),
    .init("½ small pack", .count, "1/2", "pack"),
    .init("Half", .count, "1/2"),
    .init("3rd", .count, "1/3"),
    // The juice or zest of a number of fruit.
    .init("Juice of 1", .count, "1", "juice"),
    .init("Juice of 1/2", .count, "1/2", "juice"),
    .init("juice of half", .count, "1/2", "juice"),
    .init("Zest of 1", .count, "1", "zest"),
    .init("Grated zest of 1", .count, "1", "zest"),
    .init("Zest and juice of 1", .count, "1", "juice and zest"),
    .init("Juice/zest of one", .count, "1", "juice and zest"),
    .init("The juice and zest of one", .count, "1", "juice and zest"),
    .init("2 juice of 1, the other halved", .count, "2", "juice"),
    // Deliberately without amount.
    .init("Pinch", .unquantified, nil, "pinch"),
    .init("pinch", .unquantified, nil, "pinch"),
    .init("Handful", .unquantified, nil, "handful"),
    .init("Dash", .unquantified, nil, "dash"),
    .init("Bunch", .unquantified, nil, "bunch"),
    .init("Small bunch", .unquantified, nil, "bunch"),
    .init("Splash", .unquantified, nil, "splash"),
    .init("Knob", .unquantified, nil, "knob"),
    .init("Sprinkling", .unquantified, nil, "sprinkling"),
    .init("Sprinking", .unquantified, nil, "sprinkling"),
    .init("Spinkling", .unquantified, nil, "sprinkling"),
    .init("Dusting", .unquantified, nil, "dusting"),
    .init("Leaves", .unquantified, nil, "leaf"),
    .init("Pod of", .unquantified, nil, "pod"),
    .init("Sprigs of fresh", .unquantified, nil, "sprig"),
    .init("To taste", .unquantified),
    .init("To serve", .unquantified),
    .init("For frying", .unquantified),
    .init("Topping", .unquantified),
    .init("Garnish", .unquantified),
    .init("As required", .unquantified),
    .init("grated, to taste", .unquantified),
    .init("Chopped", .unquantified),
    .init("Steamed", .unquantified),
    // Nothing to read.
    .init("White", .unparsed),
]

@Suite("MeasureParser")
struct MeasureParserTests {
    @Test("reads real measure strings from the dump", arguments: realMeasures)
    func readsRealMeasure(_ expected: MeasureCase) {
        let measure = MeasureParser.parse(expected.raw)
        #expect(measure.raw == expected.raw.trimmingCharacters(in: .whitespaces))
        #expect(measure.kind == expected.kind)
        #expect(measure.quantity?.description == expected.quantity)
        #expect(measure.maximum?.description == expected.maximum)
        #expect(measure.unit == expected.unit)
    }

    @Test func tableHoldsAtLeastEightyRealStrings() throws {
        #expect(realMeasures.count >= 80)
        let measures = Set(try DumpWalk.load().slots.compactMap(\.measure))
        for row in realMeasures {
            #expect(measures.contains(row.raw), "\(row.raw) is not a measure of the dump")
        }
    }

    @Test func blankMeasuresAreAbsent() {
        for raw in [nil, "", " ", "  \t"] as [String?] {
            let measure = MeasureParser.parse(raw)
            #expect(measure.kind == .absent)
            #expect(measure.raw == nil)
            #expect(measure.quantity == nil)
        }
    }

    @Test func rawIsKeptTrimmed() {
        #expect(MeasureParser.parse("1 tblsp ").raw == "1 tblsp")
    }

    /// Not in the dump, but pasted from word processors: an em dash or a non-breaking hyphen
    /// is a hyphen, U+2044 FRACTION SLASH is a slash, wherever they come.
    @Test func typographicDashesAndSlashesReadAsPlainOnes() {
        for raw in ["2—3 tbsp", "2\u{2011}3 tbsp"] {
            let measure = MeasureParser.parse(raw)
            #expect(measure.kind == .quantity && measure.unit == "tbsp", "\(raw)")
            #expect(measure.quantity == Rational(2, 1) && measure.maximum == Rational(3, 1), "\(raw)")
        }
        let slashed = MeasureParser.parse("1⁄2 cup")
        #expect(slashed.quantity == Rational(1, 2) && slashed.unit == "cup")
    }

    @Test func unitSystems() {
        #expect(MeasureParser.parse("100g").unitSystem == "metric")
        #expect(MeasureParser.parse("150ml").unitSystem == "metric")
        #expect(MeasureParser.parse("1 tsp").unitSystem == "us")
        #expect(MeasureParser.parse("16 ounces").unitSystem == "us")
        #expect(MeasureParser.parse("3 cloves").unitSystem == nil)
        #expect(MeasureParser.parse("Pinch").unitSystem == nil)
        #expect(MeasureParser.parse("6oz/180g").unitSystem == "metric")
    }

    @Test func confidenceIsHighestForCleanReadings() {
        #expect(MeasureParser.parse("1 tsp").confidence == 1.0)
        #expect(MeasureParser.parse("200g").confidence == 1.0)
        #expect(MeasureParser.parse("175g/6oz").confidence == 1.0)
        #expect(MeasureParser.parse("2").confidence == 1.0)
        #expect(MeasureParser.parse("2 cloves minced").confidence < 1.0)
        #expect(MeasureParser.parse("Sprinking").confidence < MeasureParser.parse("Sprinkling").confidence)
        #expect(MeasureParser.parse("Juice of 1/2").confidence < 1.0)
        #expect(MeasureParser.parse("2 x 400g").confidence < 1.0)
        #expect(MeasureParser.parse("3rd").confidence <= 0.5)
        #expect(MeasureParser.parse("Chopped").confidence < MeasureParser.parse("To taste").confidence)
        #expect(MeasureParser.parse("White").confidence == 0)
    }

    @Test func neverCrashesOnMutatedStrings() {
        let alphabet = Array("0123456789/-–.½¼⅓x() ,gmlTbsp\u{0}\u{301}😀⁄99999999999999999")
        var generator = SplitMix(seed: 0x5EED)
        var seen = 0
        for row in realMeasures {
            for _ in 0..<60 {
                var characters = Array(row.raw)
                for _ in 0..<Int(generator.next() % 4 + 1) {
                    let position = characters.isEmpty ? 0 : Int(generator.next() % UInt64(characters.count + 1))
                    let replacement = alphabet[Int(generator.next() % UInt64(alphabet.count))]
                    if generator.next() % 2 == 0, position < characters.count {
                        characters[position] = replacement
                    } else {
                        characters.insert(replacement, at: position)
                    }
                }
                let measure = MeasureParser.parse(String(characters))
                #expect((0...1).contains(measure.confidence))
                if measure.kind == .quantity { #expect(measure.quantity != nil && measure.unit != nil) }
                seen += 1
            }
        }
        for digits in ["99999999999999999999 g", "999999/999999-999998/999999 x 999999/1 kg",
                       "1/0 cup", "0/0", "999999.9999 x 999999.9999 x 999999 g"] {
            _ = MeasureParser.parse(digits)
        }
        #expect(seen == realMeasures.count * 60)
    }
}

/// A small deterministic generator, so that a failing mutation can be reproduced.
struct SplitMix {
    private var state: UInt64
    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
