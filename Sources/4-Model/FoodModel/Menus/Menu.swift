/// One day of service: the root of the food hierarchy
/// (service day → meal → restaurant → section → menu item → food → nutrient).
public struct ServiceDay: Hashable, Sendable, Codable {
    public var date: ServiceDate
    public var meals: [Meal]

    public init(date: ServiceDate, meals: [Meal]) {
        self.date = date
        self.meals = meals
    }

    /// Every menu item of the day, in page order.
    public var menuItems: [MenuItem] {
        var items: [MenuItem] = []
        items.reserveCapacity(menuItemCount)
        forEachMenuItem { items.append($0) }
        return items
    }

    /// How many menu items the day has, counted without gathering them.
    public var menuItemCount: Int {
        meals.reduce(0) { total, meal in
            meal.restaurants.reduce(total) { total, restaurant in
                restaurant.sections.reduce(total) { $0 + $1.foods.count }
            }
        }
    }

    /// Calls `body` with every menu item in page order, where it lies. The run walks each day
    /// several times (claiming foods, the digest, the counts), and gathering its items into new
    /// arrays each time would copy and allocate them for nothing.
    @inlinable
    public func forEachMenuItem(_ body: (MenuItem) throws -> Void) rethrows {
        for meal in meals {
            for restaurant in meal.restaurants {
                for section in restaurant.sections {
                    for item in section.foods { try body(item) }
                }
            }
        }
    }

    /// Changes every menu item in place, in page order.
    public mutating func updateMenuItems(_ body: (inout MenuItem) -> Void) {
        for meal in meals.indices {
            for restaurant in meals[meal].restaurants.indices {
                for section in meals[meal].restaurants[restaurant].sections.indices {
                    for item in meals[meal].restaurants[restaurant].sections[section].foods.indices {
                        body(&meals[meal].restaurants[restaurant].sections[section].foods[item])
                    }
                }
            }
        }
    }

    /// Adds the meals another source served on the same date: a meal of a name this day has
    /// gets the other's restaurants after its own (one meal, restaurants side by side), any
    /// other meal follows this day's. Nothing of either is dropped.
    public mutating func add(_ other: ServiceDay) {
        for meal in other.meals {
            if let index = meals.firstIndex(where: { $0.name == meal.name }) {
                meals[index].restaurants += meal.restaurants
            } else {
                meals.append(meal)
            }
        }
    }
}

/// A meal period ("Breakfast", "Brunch", "Dinner", "Late Night") as the source names it.
public struct Meal: Hashable, Sendable, Codable {
    public var name: String
    public var restaurants: [Restaurant]

    public init(name: String, restaurants: [Restaurant]) {
        self.name = name
        self.restaurants = restaurants
    }
}

/// A dining hall or outlet ("De Neve", "Bruin Plate").
public struct Restaurant: Hashable, Sendable, Codable {
    public var name: String
    /// The campus it belongs to, where its source names one (`campus:`): two restaurants of one
    /// name on two campuses ("Commons") are two. Nil for a pipeline of one campus.
    public var campus: String?
    public var sections: [Section]

    public init(name: String, campus: String? = nil, sections: [Section]) {
        self.name = name
        self.campus = campus
        self.sections = sections
    }

    /// What tells it apart from every other restaurant of a snapshot: its name, preceded by its
    /// campus where it has one, so that a pipeline without campuses keys (and numbers) its
    /// restaurants by their names alone, as before campuses existed.
    public var key: String { Self.key(name: name, campus: campus) }

    public static func key(name: String, campus: String?) -> String {
        campus.map { $0 + "\u{1F}" + name } ?? name
    }
}

/// A station or category within a restaurant ("The Front Burner", "Flex Bar").
public struct Section: Hashable, Sendable, Codable {
    public var name: String
    /// The menu items of this section, in page order. Named `foods` in JSON because that is
    /// what a reader of the nested output looks for at this level.
    public var foods: [MenuItem]

    public init(name: String, foods: [MenuItem]) {
        self.name = name
        self.foods = foods
    }
}

/// One appearance of a food on a menu: a section of a restaurant in a meal of a day.
///
/// The name is kept as printed on this menu (it may carry a "w/" side), while `food`
/// points at the food's stable identity.
public struct MenuItem: Hashable, Sendable, Codable {
    public var source: String
    public var recipeId: String
    public var name: String
    /// The portion segment of the recipe link (`1`, `2`, `1/2`), as text.
    public var portion: String?
    /// Web codes exactly as printed (`V`, `VG`, `AEGG`, ...), in page order.
    public var codes: [String]
    public var description: String?
    /// How many portions the kitchen planned to serve, where its menu says (UCLA's live feed).
    public var plannedPortions: Int?
    /// For a side ("w/ Bacon", "& Ham" under a dish): the index, in its section's items, of the
    /// dish it is served with. A side is an item of its own, with its own recipe and marks.
    public var servedWith: Int?
    /// The label printed with this item where it is not its food's: a source that prints a
    /// label with every appearance can give one food id two labels on one day (a 3 oz and a
    /// 4.5 oz tofu at lunch and dinner). Nil: the item was served with its food's label.
    public var label: PrintedLabel?

    public init(source: String, recipeId: String, name: String, portion: String? = nil,
                codes: [String] = [], description: String? = nil, plannedPortions: Int? = nil,
                servedWith: Int? = nil, label: PrintedLabel? = nil) {
        self.source = source
        self.recipeId = recipeId
        self.name = name
        self.portion = portion
        self.codes = codes
        self.description = description
        self.plannedPortions = plannedPortions
        self.servedWith = servedWith
        self.label = label
    }

    public var food: FoodID { FoodID(source: source, recipeId: recipeId) }
}

/// Opening hours of one restaurant for one meal period of one day, as published.
public struct HoursEntry: Hashable, Sendable, Codable {
    public var restaurant: String
    /// The restaurant's campus, as its menus carry it (`Restaurant.campus`).
    public var campus: String?
    public var date: ServiceDate?
    public var meal: String
    /// Local opening and closing times as printed ("7:00am"); nil when closed.
    public var opens: String?
    public var closes: String?
    public var isClosed: Bool
    /// A remark printed beside the hours ("Closed 1:30-2:00PM", "Limited Menu").
    public var note: String?

    public init(restaurant: String, date: ServiceDate?, meal: String, opens: String?,
                closes: String?, isClosed: Bool, note: String? = nil, campus: String? = nil) {
        self.restaurant = restaurant
        self.campus = campus
        self.date = date
        self.meal = meal
        self.opens = opens
        self.closes = closes
        self.isClosed = isClosed
        self.note = note
    }

    /// The meal name of a day a restaurant is closed all day: it serves no meal to name.
    public static let closedDayMeal = "All day"

    /// A day `restaurant` is closed, with the reason where its source gives one: data, unlike a
    /// day with no row at all, of which nothing is known.
    public static func closedDay(_ restaurant: String, on date: ServiceDate, reason: String?,
                                 campus: String? = nil) -> HoursEntry {
        HoursEntry(restaurant: restaurant, date: date, meal: closedDayMeal, opens: nil, closes: nil, isClosed: true,
                   note: reason, campus: campus)
    }
}
