import Basics
import FoodModel
import Foundation

/// Writes a TheMealDB dump of `count` recipes by repeating the real meals with new ids.
///
/// Every copy is a real meal object with its values unchanged except `idMeal`, numbered from
/// `firstId`, so decoding and measure parsing meet the real catalogue's quirks at scale. The
/// file is written meal by meal (`{"meals": [` ... `]}`), never held whole.
public enum RecipeDump {
    public static let firstId = 1_000_000

    @discardableResult
    public static func write(realDump: URL, count: Int, to file: URL) throws -> Int {
        let meals = try realMeals(realDump)
        _ = FileManager.default.createFile(atPath: file.path, contents: nil)
        let handle = try FileHandle(forWritingTo: file)
        defer { try? handle.close() }
        var bytes = 0
        func emit(_ data: Data) throws {
            try handle.write(contentsOf: data)
            bytes += data.count
        }
        try emit(Data("{\"meals\": [\n".utf8))
        for index in 0..<count {
            var meal = meals[index % meals.count]
            meal["idMeal"] = String(firstId + index)
            try emit(try JSONSerialization.data(withJSONObject: meal, options: [.sortedKeys]))
            try emit(Data((index + 1 < count ? ",\n" : "\n").utf8))
        }
        try emit(Data("]}\n".utf8))
        return bytes
    }

    private static func realMeals(_ dump: URL) throws -> [[String: Any]] {
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: dump))
        guard let meals = (object as? [String: Any])?["meals"] as? [[String: Any]], !meals.isEmpty else {
            throw Failure.badInput("not a TheMealDB dump ({\"meals\": [...]} with at least one meal)", at: dump.path)
        }
        return meals
    }
}
