/// What the stages after the write need to know of the menus, gathered as the service days
/// stream into the snapshot one partition at a time, so that a decade of menu items is never
/// held in memory at once. Everything here grows with the number of foods, codes and days,
/// never with the number of menu items.
public struct MenuDigest: Sendable {
    /// A food as the menus print it: the name and description of its first appearance, and
    /// every code and portion printed beside it anywhere.
    public struct MenuFood: Hashable, Sendable {
        public var name: String
        public var description: String?
        public var codes: Set<String>
        /// The portions the menus state for it, as printed ("14.22 oz"), each once.
        public var portions: Set<String> = []

        mutating func add(_ item: MenuItem) {
            codes.formUnion(item.codes)
            if let portion = item.portion { portions.insert(portion) }
        }
    }

    /// A food of the menus with the codes and portion of the last item that printed it, already
    /// taken in: most items print their food's usual ones, and telling two equal is cheaper than
    /// hashing them into the sets again, for every item of every day a night reads.
    private struct Seen: Sendable {
        var food: MenuFood
        var lastCodes: [String]
        var lastPortion: String?

        /// The food as its first item prints it.
        init(_ item: MenuItem) {
            food = MenuFood(name: item.name, description: item.description, codes: [])
            food.add(item)
            lastCodes = item.codes
            lastPortion = item.portion
        }

        mutating func add(_ item: MenuItem) {
            guard item.codes != lastCodes || item.portion != lastPortion else { return }
            food.add(item)
            lastCodes = item.codes
            lastPortion = item.portion
        }
    }

    /// How often a code was printed, and where first.
    public struct CodeSighting: Hashable, Sendable {
        public var count: Int
        public var example: String
    }

    /// Every food of the menus as they print it, by id; made on each call (a reader that needs
    /// only the ids reads `foodOrder`).
    public var foods: [FoodID: MenuFood] {
        Dictionary(uniqueKeysWithValues: zip(foodOrder, seen.lazy.map(\.food)))
    }
    /// The foods as `foods` gives them, numbered as in `foodOrder`.
    private var seen: [Seen] = []
    /// The meals each day lists, in serving order, each name once (a second source serving the
    /// same day adds only meals the first did not list).
    public private(set) var mealsByDay: [ServiceDate: [String]] = [:]
    /// The restaurants with a menu on each day.
    public private(set) var restaurantsByDay: [ServiceDate: Set<String>] = [:]
    public private(set) var codes: [String: CodeSighting] = [:]
    public private(set) var menuItemCount = 0
    /// Which foods each source served on each day, and how many items each: what the
    /// labelled-share check weighs once every food's label is known. The source is the
    /// pipeline's (two campuses of one platform are two sources), not the platform's. Kept as the day's distinct
    /// foods (numbers into `foodOrder`), so it grows with foods per day, not with items.
    public private(set) var servings: [ServiceDate: [String: [FoodServings]]] = [:]
    /// Every food of the menus, numbered in the order first served.
    public private(set) var foodOrder: [FoodID] = []
    private var foodNumbers: [FoodID: Int32] = [:]

    /// One food on one day's menus of one source, with how many menu items served it.
    public struct FoodServings: Hashable, Sendable {
        public var food: Int32
        public var items: Int32
    }

    public init() {}

    /// Takes in one day that the pipeline's `source` served, after those added before it: first
    /// appearances are in the order the days are added.
    public mutating func add(_ day: ServiceDay, servedBy source: String) {
        for meal in day.meals where !(mealsByDay[day.date]?.contains(meal.name) ?? false) {
            mealsByDay[day.date, default: []].append(meal.name)
        }
        // A restaurant counts as present only with something on its menu: an empty block is
        // what a page read wrong looks like.
        restaurantsByDay[day.date, default: []].formUnion(day.meals.flatMap { meal in
            meal.restaurants.filter { $0.sections.contains { !$0.foods.isEmpty } }.map(\.name)
        })
        var served: [Int32: Int32] = [:]
        day.forEachMenuItem { item in
            let number = number(of: item)
            served[number, default: 0] += 1
            menuItemCount += 1
            seen[Int(number)].add(item)
            for code in item.codes {
                codes[code, default: CodeSighting(count: 0, example: "\(item.name) (\(item.food)) on \(day.date)")].count += 1
            }
        }
        if !served.isEmpty {
            servings[day.date, default: [:]][source, default: []] += served.sorted { $0.key < $1.key }
                .map { FoodServings(food: $0.key, items: $0.value) }
        }
    }

    /// The number of `item`'s food, a new one (the food as `item` prints it) the first time.
    private mutating func number(of item: MenuItem) -> Int32 {
        if let known = foodNumbers[item.food] { return known }
        let next = Int32(foodOrder.count)
        foodOrder.append(item.food)
        foodNumbers[item.food] = next
        seen.append(Seen(item))
        return next
    }

    /// Every food some menu item refers to but no recipe page described.
    public func foodsWithoutPage(in dataset: Dataset) -> Set<FoodID> {
        Set(foodOrder).subtracting(dataset.foods.keys)
    }
}
