/// One printed label line split into name, amount and unit: "Total Fat 21.3g" →
/// ("Total Fat", 21.3, "g"). A line without a trailing amount keeps its text as the name.
struct NutritionLabelRow: Hashable {
    var name: String
    var amount: Double?
    var unit: String?

    init(_ text: String) {
        let pattern = /^(?<name>.*?)\s*(?<amount>\d+(?:\.\d+)?|\.\d+)\s*(?<unit>[A-Za-zµ]+)?$/
        guard let match = text.wholeMatch(of: pattern), let amount = Double(match.output.amount),
              !match.output.name.isEmpty
        else {
            name = text
            return
        }
        name = String(match.output.name)
        self.amount = amount
        unit = match.output.unit.map(String.init)
    }

    /// The first number in a printed percentage or count ("33%", "Calories 459").
    static func firstNumber(in text: String) -> Double? {
        text.firstMatch(of: /\d+(?:\.\d+)?/).flatMap { Double($0.output) }
    }
}
