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
    }

    /// The codes and portion one menu item prints beside its food.
    struct Print: Equatable, Sendable {
        var codes: [String]
        var portion: String?

        init(_ item: MenuItem) {
            codes = item.codes
            portion = item.portion
        }

        init(codes: [String], portion: String?) {
            self.codes = codes
            self.portion = portion
        }
    }

    /// A food of the menus with the codes and portion of the last item that printed it, already
    /// taken in: most items print their food's usual ones, and telling two equal is cheaper than
    /// hashing them into the sets again, for every food of every day a night reads.
    private struct Seen: Sendable {
        var food: MenuFood
        var last: Print?

        /// The food as its first day names it, before any of its prints.
        init(_ food: Day.Food) {
            self.food = MenuFood(name: food.name, description: food.description, codes: [])
        }

        mutating func add(_ print: Print) {
            guard print != last else { return }
            food.codes.formUnion(print.codes)
            if let portion = print.portion { food.portions.insert(portion) }
            last = print
        }
    }

    /// What one day adds to the digest, gathered apart from it: on the task that read the day,
    /// so that the run's task, which adds the days in order, handles each food and code of a
    /// day once rather than each item.
    public struct Day: Sendable {
        /// A food of the day as its first item names it, with each different print of its
        /// items (in the order first printed) and how many items served it.
        struct Food: Sendable {
            let id: FoodID
            let name: String
            let description: String?
            var prints: [Print]
            var items: Int32
        }

        public let date: ServiceDate
        /// The meals the day lists, in serving order, each name once.
        let meals: [String]
        /// The restaurants with something on their menu.
        let restaurants: Set<String>
        /// The day's foods in the order first served.
        private(set) var foods: [Food] = []
        /// Each code printed, in the order first printed, with how often and where first.
        private(set) var codes: [(code: String, sighting: CodeSighting)] = []
        public private(set) var itemCount = 0
        /// The day's foods, each once, in the order first served.
        public var foodIDs: [FoodID] { foods.map(\.id) }

        /// A share as it was gathered, read back (`MenuDigestDayBytes`).
        init(date: ServiceDate, meals: [String], restaurants: Set<String>, foods: [Food],
             codes: [(code: String, sighting: CodeSighting)], itemCount: Int) {
            self.date = date
            self.meals = meals
            self.restaurants = restaurants
            self.foods = foods
            self.codes = codes
            self.itemCount = itemCount
        }

        public init(_ day: ServiceDay) {
            date = day.date
            var meals: [String] = []
            for meal in day.meals where !meals.contains(meal.name) { meals.append(meal.name) }
            self.meals = meals
            // A restaurant counts as present only with something on its menu: an empty block is
            // what a page read wrong looks like.
            restaurants = Set(day.meals.flatMap { meal in
                meal.restaurants.filter { $0.sections.contains { !$0.foods.isEmpty } }.map(\.name)
            })
            var numbers: [FoodID: Int] = [:]
            var codeNumbers: [String: Int] = [:]
            day.forEachMenuItem { item in
                itemCount += 1
                let print = Print(item)
                if let known = numbers[item.food] {
                    foods[known].items += 1
                    if !foods[known].prints.contains(print) { foods[known].prints.append(print) }
                } else {
                    numbers[item.food] = foods.count
                    foods.append(Food(id: item.food, name: item.name, description: item.description, prints: [print],
                                      items: 1))
                }
                for code in item.codes {
                    if let known = codeNumbers[code] {
                        codes[known].sighting.count += 1
                    } else {
                        codeNumbers[code] = codes.count
                        codes.append((code, CodeSighting(count: 1, example: "\(item.name) (\(item.food)) on \(day.date)")))
                    }
                }
            }
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
    public mutating func add(_ day: Day, servedBy source: String) {
        for meal in day.meals where !(mealsByDay[day.date]?.contains(meal) ?? false) {
            mealsByDay[day.date, default: []].append(meal)
        }
        restaurantsByDay[day.date, default: []].formUnion(day.restaurants)
        menuItemCount += day.itemCount
        for (code, sighting) in day.codes {
            codes[code, default: CodeSighting(count: 0, example: sighting.example)].count += sighting.count
        }
        guard !day.foods.isEmpty else { return }
        var served: [FoodServings] = []
        served.reserveCapacity(day.foods.count)
        for food in day.foods {
            let number: Int32
            if let known = foodNumbers[food.id] {
                number = known
            } else {
                number = Int32(foodOrder.count)
                foodOrder.append(food.id)
                foodNumbers[food.id] = number
                seen.append(Seen(food))
            }
            for print in food.prints { seen[Int(number)].add(print) }
            served.append(FoodServings(food: number, items: food.items))
        }
        servings[day.date, default: [:]][source, default: []] += served.sorted { $0.food < $1.food }
    }

    /// Every food some menu item refers to but no recipe page described.
    public func foodsWithoutPage(in dataset: Dataset) -> Set<FoodID> {
        Set(foodOrder).subtracting(dataset.foods.keys)
    }
}
