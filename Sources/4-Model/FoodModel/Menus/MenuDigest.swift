import Basics
import Foundation

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

    /// The codes and portion one menu item prints beside its food, as a day gathers them.
    struct Print: Equatable {
        var codes: [String]
        var portion: String?

        init(_ item: MenuItem) {
            codes = item.codes
            portion = item.portion
        }
    }

    /// The bytes of the prints each food was last taken in with (a day's prints of it, as `Day`
    /// lays them out), by the food's number: most foods print the same codes and portion day
    /// after day, and telling two runs of bytes equal is cheaper than reading them into the sets
    /// again, for every food of every day a night reads. All of them lie in one buffer, each
    /// food's at its span: an array of bytes for each food, one more object to reach per food
    /// and day, made the comparison cost a third of taking a cached day in.
    struct LastPrints: Sendable {
        private var bytes: [UInt8] = []
        private var spans: [(start: Int, count: Int)] = []
        /// The bytes of the spans, less than `bytes` holds once a food's prints grew.
        private var liveCount = 0

        /// Makes room for the next food's prints, empty.
        mutating func addFood() {
            spans.append((bytes.count, 0))
        }

        /// Whether `prints` are those `food` was last taken in with, compared as memory.
        func same(_ prints: UnsafeRawBufferPointer, as food: Int) -> Bool {
            let span = spans[food]
            guard prints.count == span.count else { return false }
            guard span.count > 0, let start = prints.baseAddress else { return true }
            return bytes.withUnsafeBytes { kept in
                kept.baseAddress.map { memcmp(start, $0 + span.start, span.count) == 0 } ?? false
            }
        }

        /// Keeps `prints` as `food`'s: in place of its last ones when they fit, else at the end
        /// (the buffer laid out again once most of it is prints no food holds any more).
        mutating func keep(_ prints: UnsafeRawBufferPointer, as food: Int) {
            let span = spans[food]
            liveCount += prints.count - span.count
            if prints.count <= span.count {
                bytes.withUnsafeMutableBytes { kept in
                    guard let source = prints.baseAddress, let target = kept.baseAddress else { return }
                    target.advanced(by: span.start).copyMemory(from: source, byteCount: prints.count)
                }
                spans[food].count = prints.count
                return
            }
            if bytes.count + prints.count > 2 * (liveCount + 4_096) { compact() }
            spans[food] = (bytes.count, prints.count)
            bytes.append(contentsOf: prints)
        }

        private mutating func compact() {
            var compacted: [UInt8] = []
            compacted.reserveCapacity(liveCount)
            for food in spans.indices {
                let span = spans[food]
                spans[food].start = compacted.count
                compacted.append(contentsOf: bytes[span.start..<(span.start + span.count)])
            }
            bytes = compacted
        }
    }

    /// What one day adds to the digest, gathered apart from it: on the task that read the day,
    /// so that the run's task, which adds the days in order, handles each food and code of a
    /// day once rather than each item.
    ///
    /// Its foods and codes are kept as bytes (`FieldWriter`), as the parse cache keeps them: a
    /// cached day is read back without a value made for each food's name and prints, most of
    /// which the digest knows already, and its share goes when added without a value freed for
    /// each of them. For each food, in the order first served: its id, the name and description
    /// of its first item, how many items served it, and each different print of its items (codes
    /// and portion) in the order first printed; then each code printed, in the order first
    /// printed, with how often and where first.
    public struct Day: Sendable {
        public let date: ServiceDate
        /// The meals the day lists, in serving order, each name once.
        let meals: [String]
        /// The restaurants with something on their menu.
        let restaurants: Set<String>
        public let itemCount: Int
        /// The day's foods, each once, in the order first served.
        public let foodIDs: [FoodID]
        /// The foods and codes, laid out as said above; checked when made.
        let foodsAndCodes: Data

        /// A share read back from the bytes `foodsAndCodes` (`MenuDigestDayBytes`), which are
        /// checked to be what a share lays out: anything else is `Failure.damagedBytes`.
        init(date: ServiceDate, meals: [String], restaurants: Set<String>, itemCount: Int, foodsAndCodes: Data) throws {
            self.date = date
            self.meals = meals
            self.restaurants = restaurants
            self.itemCount = itemCount
            self.foodsAndCodes = foodsAndCodes
            foodIDs = try foodsAndCodes.withUnsafeBytes { buffer in
                var input = FieldReader(buffer)
                return try Self.check(&input)
            }
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
            struct Food {
                let id: FoodID
                let name: String
                let description: String?
                var prints: [Print]
                var items: Int
            }
            var foods: [Food] = []
            var codes: [(code: String, sighting: CodeSighting)] = []
            var numbers: [FoodID: Int] = [:]
            var codeNumbers: [String: Int] = [:]
            var itemCount = 0
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
            self.itemCount = itemCount
            foodIDs = foods.map(\.id)
            var output = FieldWriter()
            output.put(foods.count)
            for food in foods {
                output.put(food.id.source)
                output.put(food.id.recipeId)
                output.put(food.name)
                output.put(food.description)
                output.put(food.items)
                output.put(food.prints.count)
                for print in food.prints {
                    output.put(print.codes)
                    output.put(print.portion)
                }
            }
            output.put(codes.count)
            for (code, sighting) in codes {
                output.put(code)
                output.put(sighting.count)
                output.put(sighting.example)
            }
            foodsAndCodes = Data(output.bytes)
        }

        /// Reads foods and codes laid out as above through to the end of `input`, and their
        /// foods' ids; anything else is `Failure.damagedBytes`.
        private static func check(_ input: inout FieldReader) throws -> [FoodID] {
            var ids: [FoodID] = []
            for _ in 0..<(try input.count()) {
                ids.append(FoodID(source: try input.string(), recipeId: try input.string()))
                try input.skipString()
                try input.skipOptionalString()
                _ = try items(&input)
                try skipPrints(&input)
            }
            for _ in 0..<(try input.count()) {
                try input.skipString()
                _ = try codeCount(&input)
                try input.skipString()
            }
            guard input.isAtEnd else { throw Failure.damagedBytes }
            return ids
        }

        fileprivate static func items(_ input: inout FieldReader) throws -> Int32 {
            guard let items = Int32(exactly: try input.int()), items > 0 else { throw Failure.damagedBytes }
            return items
        }

        fileprivate static func codeCount(_ input: inout FieldReader) throws -> Int {
            let count = try input.int()
            guard count > 0 else { throw Failure.damagedBytes }
            return count
        }

        fileprivate static func skipPrints(_ input: inout FieldReader) throws {
            for _ in 0..<(try input.count()) {
                for _ in 0..<(try input.count()) { try input.skipString() }
                try input.skipOptionalString()
            }
        }

        /// A food's prints, read into its codes and portions.
        fileprivate static func readPrints(_ input: inout FieldReader, into food: inout MenuFood) throws {
            for _ in 0..<(try input.count()) {
                food.codes.formUnion(try input.strings())
                if let portion = try input.optionalString() { food.portions.insert(portion) }
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
        Dictionary(uniqueKeysWithValues: zip(foodOrder, seen))
    }
    /// The foods as `foods` gives them, numbered as in `foodOrder`.
    private var seen: [MenuFood] = []
    private var lastPrints = LastPrints()
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
    /// appearances are in the order the days are added. A food the digest knows is passed over
    /// in the day's bytes but for its items, and for its prints when they are not the bytes it
    /// was last taken in with. Throws `Failure.damagedBytes` for bytes that are not a share's,
    /// which a `Day` never holds: they are checked when it is made.
    public mutating func add(_ day: Day, servedBy source: String) throws {
        let served = try day.foodsAndCodes.withUnsafeBytes { buffer in
            var input = FieldReader(buffer)
            return try takeIn(&input, foods: day.foodIDs)
        }
        for meal in day.meals where !(mealsByDay[day.date]?.contains(meal) ?? false) {
            mealsByDay[day.date, default: []].append(meal)
        }
        restaurantsByDay[day.date, default: []].formUnion(day.restaurants)
        menuItemCount += day.itemCount
        guard !served.isEmpty else { return }
        servings[day.date, default: [:]][source, default: []] += served.sorted { $0.food < $1.food }
    }

    /// The foods and codes of a day's bytes, already checked, into the digest; the day's
    /// servings, by the digest's numbers.
    private mutating func takeIn(_ input: inout FieldReader, foods ids: [FoodID]) throws -> [FoodServings] {
        var served: [FoodServings] = []
        served.reserveCapacity(ids.count)
        _ = try input.count()
        for id in ids {
            // The id, as `ids` holds it.
            try input.skipString()
            try input.skipString()
            let number: Int32
            if let known = foodNumbers[id] {
                number = known
                try input.skipString()
                try input.skipOptionalString()
            } else {
                number = Int32(foodOrder.count)
                foodOrder.append(id)
                foodNumbers[id] = number
                let food = MenuFood(name: try input.string(), description: try input.optionalString(), codes: [])
                seen.append(food)
                lastPrints.addFood()
            }
            let items = try Day.items(&input)
            let start = input.offset
            try Day.skipPrints(&input)
            let prints = input.bytes(from: start)
            if !lastPrints.same(prints, as: Int(number)) {
                var again = FieldReader(prints)
                try Day.readPrints(&again, into: &seen[Int(number)])
                lastPrints.keep(prints, as: Int(number))
            }
            served.append(FoodServings(food: number, items: items))
        }
        for _ in 0..<(try input.count()) {
            let code = try input.string()
            let count = try Day.codeCount(&input)
            if let known = codes.index(forKey: code) {
                codes.values[known].count += count
                try input.skipString()
            } else {
                codes[code] = CodeSighting(count: count, example: try input.string())
            }
        }
        return served
    }

    /// Every food some menu item refers to but no recipe page described.
    public func foodsWithoutPage(in dataset: Dataset) -> Set<FoodID> {
        Set(foodOrder).subtracting(dataset.foods.keys)
    }
}
