import Basics
import Foundation

/// A day's share of the menus' digest (`MenuDigest.Day`) as the parse cache keeps it beside the
/// day, each field in a fixed order (`FieldWriter`): a night takes a cached day's share as it was
/// gathered rather than walking the day's items again. The restaurants, a set, are laid out
/// sorted, so that one share always gives the same bytes; the foods and codes follow as the share
/// holds them.
public enum MenuDigestDayBytes {
    public static func encode(_ day: MenuDigest.Day) -> Data {
        var output = FieldWriter()
        output.put(day.date.description)
        output.put(day.meals)
        output.put(day.restaurants.sorted())
        output.put(day.itemCount)
        return Data(output.bytes) + day.foodsAndCodes
    }

    /// Throws `Failure.damagedBytes` for bytes this did not write. The foods and codes are
    /// checked here and kept as bytes, not read into values (`MenuDigest.Day`).
    public static func decode(_ data: Data) throws -> MenuDigest.Day {
        let (date, meals, restaurants, itemCount, rest) = try data.withUnsafeBytes { buffer in
            var input = FieldReader(buffer)
            guard let date = ServiceDate(try input.string()) else { throw Failure.damagedBytes }
            let meals = try input.strings()
            let restaurants = Set(try input.strings())
            let itemCount = try input.int()
            guard itemCount >= 0 else { throw Failure.damagedBytes }
            return (date, meals, restaurants, itemCount, input.offset)
        }
        return try MenuDigest.Day(date: date, meals: meals, restaurants: restaurants, itemCount: itemCount,
                                  foodsAndCodes: data.dropFirst(rest))
    }
}
