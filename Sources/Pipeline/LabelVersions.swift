import FoodModel

/// The labels a food printed over the days of a run. A dish's label changes over a history (UCLA's
/// Bruin Burger printed 405 kcal until mid-September 2016 and 278 kcal after): keeping one label
/// per food would give every day the first one. Each different label is a version, numbered in
/// the order days arrive (partition order), and each menu item records the version its day printed.
struct LabelVersions {
    struct Version {
        /// The food as that day printed it; its label is what versions compare.
        var food: Food
        var first: ServiceDate
        var last: ServiceDate
        var days: Int
    }

    /// What two labels must share to be one version.
    private struct Label: Equatable {
        var calories: Double?
        var servingSize: String?
        var nutrients: [NutrientValue]

        init(_ food: Food) {
            calories = food.calories
            servingSize = food.servingSize
            nutrients = food.nutrients
        }
    }

    private(set) var versions: [FoodID: [Version]] = [:]
    /// Menu items served with a label other than their food's first.
    private(set) var itemsOnLaterVersions = 0

    /// Records the labels `foods` printed on `day` and returns each food's version that day. Only
    /// foods with a label count: a food without nutrients has nothing to version.
    mutating func record(_ foods: [Food], on day: ServiceDay) -> [FoodID: Int] {
        var today: [FoodID: Int] = [:]
        for food in foods where !food.nutrients.isEmpty && today[food.id] == nil {
            let label = Label(food)
            var known = versions[food.id] ?? []
            if let index = known.firstIndex(where: { Label($0.food) == label }) {
                known[index].first = min(known[index].first, day.date)
                known[index].last = max(known[index].last, day.date)
                known[index].days += 1
                today[food.id] = index + 1
            } else {
                known.append(Version(food: food, first: day.date, last: day.date, days: 1))
                today[food.id] = known.count
            }
            versions[food.id] = known
        }
        day.forEachMenuItem { item in
            if let version = today[item.food], version > 1 { itemsOnLaterVersions += 1 }
        }
        return today
    }

    /// Foods that printed more than one label, each with its versions in order.
    var changing: [(id: FoodID, versions: [Version])] {
        versions.filter { $0.value.count > 1 }.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }

    /// The foods of `dataset` with their first label as the food's own, so that the `food` row
    /// and version 1 agree whichever partition read the food's row.
    func firstLabels(of foods: [FoodID: Food]) -> [FoodID: Food] {
        var foods = foods
        for (id, known) in versions where known.count > 1 {
            guard var food = foods[id], let first = known.first?.food else { continue }
            food.calories = first.calories
            food.servingSize = first.servingSize
            food.serving = first.serving
            food.nutrients = first.nutrients
            foods[id] = food
        }
        return foods
    }

    /// Applies `transform` to every version's food (the compute stage: %DV, unfilled labels).
    mutating func mapLabels(_ transform: (Food) -> Food) {
        for (id, known) in versions where known.count > 1 {
            versions[id] = known.map { version in
                var version = version
                version.food = transform(version.food)
                return version
            }
        }
    }
}
