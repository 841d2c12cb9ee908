import Basics
import Foundation

/// Service days as the parse cache keeps them: each field in a fixed order (`FieldWriter`). A
/// rerun reads every cached day back, and the generic coder spent most of that on the keys and
/// containers of a hundred thousand menu items (half the rerun's parse stage, perf).
/// `ServiceDayBytesTests` round-trips real days of every adapter, so a field this forgot would
/// fail there.
public enum ServiceDayBytes {
    public static func encode(_ days: [ServiceDay]) -> Data {
        FieldWriter.list(days) { $0.put($1) }
    }

    /// Throws `Failure.damagedBytes` for bytes this did not write.
    public static func decode(_ data: Data) throws -> [ServiceDay] {
        try FieldReader.list(data) { try $0.day() }
    }
}

extension FieldWriter {
    fileprivate mutating func put(_ day: ServiceDay) {
        put(day.date.description)
        put(day.meals.count)
        for meal in day.meals {
            put(meal.name)
            put(meal.restaurants.count)
            for restaurant in meal.restaurants {
                put(restaurant.name)
                put(restaurant.campus)
                put(restaurant.sections.count)
                for section in restaurant.sections {
                    put(section.name)
                    put(section.foods.count)
                    for item in section.foods {
                        put(item.source)
                        put(item.recipeId)
                        put(item.name)
                        put(item.portion)
                        put(item.codes)
                        put(item.description)
                        put(item.plannedPortions)
                        put(item.servedWith)
                        put(item.label)
                    }
                }
            }
        }
    }

    fileprivate mutating func put(_ label: PrintedLabel?) {
        put(present: label != nil)
        guard let label else { return }
        put(label.servingSize)
        put(label.serving)
        put(label.calories)
        put(label.basis?.rawValue)
        put(label.nutrients)
    }
}

extension FieldReader {
    fileprivate mutating func day() throws -> ServiceDay {
        guard let date = ServiceDate(try string()) else { throw Failure.damagedBytes }
        let meals = try (0..<count()).map { _ in
            Meal(name: try string(), restaurants: try (0..<count()).map { _ in
                Restaurant(name: try string(), campus: try optionalString(), sections: try (0..<count()).map { _ in
                    Section(name: try string(), foods: try (0..<count()).map { _ in
                        MenuItem(source: try string(), recipeId: try string(), name: try string(),
                                 portion: try optionalString(), codes: try strings(),
                                 description: try optionalString(), plannedPortions: try optionalInt(),
                                 servedWith: try optionalInt(), label: try label())
                    })
                })
            })
        }
        return ServiceDay(date: date, meals: meals)
    }

    fileprivate mutating func label() throws -> PrintedLabel? {
        guard try flag() else { return nil }
        let servingSize = try optionalString()
        let serving = try serving()
        let calories = try optionalDouble()
        let basis = try labelBasis()
        return PrintedLabel(servingSize: servingSize, serving: serving, calories: calories, nutrients: try nutrients(),
                            basis: basis)
    }
}
