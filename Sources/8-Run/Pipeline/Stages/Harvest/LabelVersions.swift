import FoodModel

/// The labels a food printed over the days of a run. A dish's label changes over a history (UCLA's
/// Bruin Burger printed 405 kcal until mid-September 2016 and 278 kcal after): keeping one label
/// per food would give every day the first one. Each different label is a version, numbered in
/// the order days arrive (partition order), and each menu item records the version printed with
/// it: its food's label that day, or the item's own (`MenuItem.label`) where one food id printed
/// two labels on one day (a 3 oz and a 4.5 oz tofu in two meals).
struct LabelVersions {
    struct Version {
        /// The food as that label printed it; its label is what versions compare.
        var food: Food
        var first: ServiceDate
        var last: ServiceDate
        var days: Int
    }

    private(set) var versions: [FoodID: [Version]] = [:]
    /// Menu items served with a label other than their food's first.
    private(set) var itemsOnLaterVersions = 0

    /// Records the labels printed on `day`, the foods' in `foods` (the first of each id is the
    /// food's label that day) and the items' own, and returns each item's version in page order
    /// (`ServiceDay.forEachMenuItem`). Only labels with nutrients count: a label without any has
    /// nothing to version, and its item gets none.
    mutating func record(_ foods: [Food], on day: ServiceDay) -> [Int?] {
        var counted: Set<VersionKey> = []
        var today: [FoodID: (food: Food, version: Int?)] = [:]
        for food in foods where today[food.id] == nil {
            today[food.id] = (food, record(PrintedLabel(of: food), of: food, on: day.date, counted: &counted))
        }
        var items: [Int?] = []
        items.reserveCapacity(day.menuItemCount)
        day.forEachMenuItem { item in
            var version = today[item.food]?.version
            if let label = item.label, let food = today[item.food]?.food {
                version = record(label, of: food, on: day.date, counted: &counted)
            }
            if let version, version > 1 { itemsOnLaterVersions += 1 }
            items.append(version)
        }
        return items
    }

    /// A food's version, counted once per day however many items print it.
    private struct VersionKey: Hashable {
        var food: FoodID
        var version: Int
    }

    /// The version `label` is of `food`, a new one if no day printed it before; nil for a label
    /// without nutrients.
    private mutating func record(_ label: PrintedLabel, of food: Food, on date: ServiceDate,
                                 counted: inout Set<VersionKey>) -> Int? {
        guard !label.nutrients.isEmpty else { return nil }
        var known = versions[food.id] ?? []
        let index: Int
        if let found = known.firstIndex(where: { PrintedLabel(of: $0.food) == label }) {
            index = found
            if counted.insert(VersionKey(food: food.id, version: index + 1)).inserted {
                known[index].first = min(known[index].first, date)
                known[index].last = max(known[index].last, date)
                known[index].days += 1
            }
        } else {
            known.append(Version(food: label.applied(to: food), first: date, last: date, days: 1))
            index = known.count - 1
            counted.insert(VersionKey(food: food.id, version: index + 1))
        }
        versions[food.id] = known
        return index + 1
    }

    /// Foods that printed more than one label, each with its versions in order.
    var changing: [(id: FoodID, versions: [Version])] {
        versions.filter { $0.value.count > 1 }.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }

    /// Gives each food of `foods` that printed a label its first label as its own, so that the
    /// `food` row and version 1 agree whichever partition read the food's row (and whichever
    /// label, the food's or an item's, came first). In place: a copy of the table to return
    /// would copy every food of the run for the few that printed labels.
    func setFirstLabels(in foods: inout [FoodID: Food]) {
        for (id, known) in versions {
            guard let food = foods[id], let first = known.first?.food else { continue }
            foods[id] = PrintedLabel(of: first).applied(to: food)
        }
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
