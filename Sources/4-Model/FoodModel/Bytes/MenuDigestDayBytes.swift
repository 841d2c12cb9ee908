import Basics
import Foundation

/// A day's share of the menus' digest (`MenuDigest.Day`) as the parse cache keeps it beside the
/// day, each field in a fixed order (`FieldWriter`): a night takes a cached day's share as it was
/// gathered rather than walking the day's items again. The restaurants, a set, are laid out
/// sorted, so that one share always gives the same bytes.
public enum MenuDigestDayBytes {
    public static func encode(_ day: MenuDigest.Day) -> Data {
        var output = FieldWriter()
        output.put(day.date.description)
        output.put(day.meals)
        output.put(day.restaurants.sorted())
        output.put(day.itemCount)
        output.put(day.foods.count)
        for food in day.foods {
            output.put(food.id.source)
            output.put(food.id.recipeId)
            output.put(food.name)
            output.put(food.description)
            output.put(Int(food.items))
            output.put(food.prints.count)
            for print in food.prints {
                output.put(print.codes)
                output.put(print.portion)
            }
        }
        output.put(day.codes.count)
        for (code, sighting) in day.codes {
            output.put(code)
            output.put(sighting.count)
            output.put(sighting.example)
        }
        return Data(output.bytes)
    }

    /// Throws `Failure.damagedBytes` for bytes this did not write.
    public static func decode(_ data: Data) throws -> MenuDigest.Day {
        try data.withUnsafeBytes { buffer in
            var input = FieldReader(buffer)
            guard let date = ServiceDate(try input.string()) else { throw Failure.damagedBytes }
            let meals = try input.strings()
            let restaurants = Set(try input.strings())
            let itemCount = try input.int()
            let foods = try (0..<input.count()).map { _ in
                let id = FoodID(source: try input.string(), recipeId: try input.string())
                let name = try input.string(), description = try input.optionalString()
                guard let items = Int32(exactly: try input.int()) else { throw Failure.damagedBytes }
                let prints = try (0..<input.count()).map { _ in
                    MenuDigest.Print(codes: try input.strings(), portion: try input.optionalString())
                }
                return MenuDigest.Day.Food(id: id, name: name, description: description, prints: prints, items: items)
            }
            let codes = try (0..<input.count()).map { _ in
                (code: try input.string(),
                 sighting: MenuDigest.CodeSighting(count: try input.int(), example: try input.string()))
            }
            guard input.isAtEnd else { throw Failure.damagedBytes }
            return MenuDigest.Day(date: date, meals: meals, restaurants: restaurants, foods: foods, codes: codes,
                                  itemCount: itemCount)
        }
    }
}
