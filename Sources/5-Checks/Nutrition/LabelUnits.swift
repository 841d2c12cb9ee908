import FoodModel

/// The units of the labels one answer printed, judged together (`PlausibleAmount.judge`), for a
/// source whose labels state each nutrient's unit beside it (DineOnCampus's `uom`, Bon
/// Appétit's `nutrition_details`, a NetNutrition label's amounts): a kitchen
/// sets a nutrient's unit up once for all its items, and can set it up wrongly, as Nutrislice's
/// `mg_vitamin_d` holds micrograms. The amounts of each nutrient declared in one unit are judged
/// as one key's; a food's nutrient is then read in the unit judged, and an amount that unit
/// does not admit is left out.
public struct LabelUnits: Sendable {
    private struct Declared: Hashable {
        var nutrient: NutrientKey
        var unit: NutrientUnit
    }

    private var judgements: [Declared: PlausibleAmount.Judgement] = [:]

    /// What one food's label became: its nutrients as read, the values left out and the
    /// nutrients read in another unit than they declare, each as a line naming `place`.
    public struct Reading {
        public var food: Food
        public var leftOut: [String]
        public var reread: [NutrientKey: (declared: String, read: String)]
    }

    public init(_ foods: [Food]) {
        self.init(declaring: foods.flatMap { food in
            food.nutrients.compactMap { nutrient in
                guard let amount = nutrient.amount, let unit = nutrient.unit else { return nil }
                return (nutrient.key, unit, amount)
            }
        })
    }

    /// Judged on every amount the answer declares, with its nutrient and the unit printed beside
    /// it, before any food is made of them.
    public init(declaring declared: [(nutrient: NutrientKey, unit: String, amount: Double)]) {
        var amounts: [Declared: [Double]] = [:]
        for (nutrient, printed, amount) in declared {
            guard let unit = NutrientUnit(label: printed), PlausibleAmount.ceiling(of: nutrient) != nil else { continue }
            amounts[Declared(nutrient: nutrient, unit: unit), default: []].append(amount)
        }
        for (declared, values) in amounts {
            judgements[declared] = PlausibleAmount.judge(values, of: declared.nutrient, declaredIn: declared.unit)
        }
    }

    /// The unit a value of `nutrient` printed in `printed` is read in.
    public func unit(of nutrient: NutrientKey, printed: String?) -> String? {
        guard let printed, let judgement = judgement(of: nutrient, printed: printed),
              judgement.unit != NutrientUnit(label: printed) else { return printed }
        return judgement.unit.rawValue
    }

    /// Whether `amount` of `nutrient`, printed in `printed`, is one a serving can hold in the
    /// unit it is read in.
    public func admits(_ amount: Double, of nutrient: NutrientKey, printed: String?) -> Bool {
        printed.flatMap { judgement(of: nutrient, printed: $0) }?.admits(amount) ?? true
    }

    private func judgement(of nutrient: NutrientKey, printed: String) -> PlausibleAmount.Judgement? {
        NutrientUnit(label: printed).flatMap { judgements[Declared(nutrient: nutrient, unit: $0)] }
    }

    /// `food` with each nutrient in the unit its answer's amounts are read in; `place` names the
    /// food in the lines about a value left out.
    public func read(_ food: Food, place: String) -> Reading {
        var reading = Reading(food: food, leftOut: [], reread: [:])
        guard !judgements.isEmpty else { return reading }
        reading.food.nutrients = food.nutrients.compactMap { nutrient in
            guard let printed = nutrient.unit, let unit = NutrientUnit(label: printed),
                  let judgement = judgement(of: nutrient.key, printed: printed) else { return nutrient }
            if let amount = nutrient.amount, !judgement.admits(amount) {
                let shown = amount == amount.rounded() && abs(amount) < 1e15 ? String(Int(amount)) : String(amount)
                reading.leftOut.append("\(place): \(nutrient.name) is \(shown) \(printed), more than a serving of any food "
                                       + "holds in \(judgement.unit.rawValue), the unit the answer's other values are read "
                                       + "in: left out")
                return nil
            }
            guard judgement.unit != unit else { return nutrient }
            var read = nutrient
            read.unit = judgement.unit.rawValue
            reading.reread[nutrient.key] = (printed, judgement.unit.rawValue)
            return read
        }
        return reading
    }
}
