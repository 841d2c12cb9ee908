import Basics
import FoodModel
import Foundation
import SourceReading

/// A Bon Appétit `menus` answer (`/api/2/menus?cafe={ids}&date=YYYY-MM-DD`,
/// Sources/1-Sources/SourceAdapters/BonAppetit/README.md): `days[]`, each with its `date` and its `cafes` by id (a name and
/// `dayparts`, the meals, each with its `starttime`, `endtime` and `stations` listing item ids),
/// and `items` by id, each item once however many stations list it.
///
/// Everything is found by its field's name: an answer wrapped one level down (`{"menus": {days,
/// items}}`) is read as well, dayparts come as a list or as a list of lists, and an item that
/// cannot be read costs only itself.
public enum BonAppetitMenu {
    public static let sourceName = "bonappetit"

    public struct Parsed: Sendable {
        /// One per date of the answer, in the answer's order; a café without dayparts (closed)
        /// adds no meal.
        public var days: [ServiceDay]
        public var foods: [Food]
        /// Each daypart's start and end, the café's hours for that meal; a closed café's day is
        /// one entry marked closed.
        public var hours: [HoursEntry]
        /// Items and stations left out, icons and fields read as printed, one line each.
        public var problems: [String]
        /// Cafés of the answer that had no daypart on a day.
        public var closedCafes: Int
    }

    /// The request for the days' menus of `cafes` on `date`.
    public static func path(cafes: [String], date: ServiceDate) -> String {
        "/api/2/menus?cafe=\(cafes.joined(separator: ","))&date=\(date)"
    }

    /// Reads an answer; `cafes`, when given, keeps only those cafés (an answer may list more).
    public static func parse(_ data: Data, cafes: Set<String>? = nil, location: String) throws -> Parsed {
        let top = try JSONFields.object(data, location: location, expecting: "a Bon Appétit menus answer")
        guard let answer = menus(in: top) else {
            throw Failure.badInput("expected a menus answer with its days and items, found " + describe(top), at: location)
        }
        let items = answer["items"] as? [String: Any] ?? [:]
        var reader = ItemReader(items: items, icons: answer["cor_icons"] as? [String: Any] ?? [:], location: location)
        var parsed = Parsed(days: [], foods: [], hours: [], problems: [], closedCafes: 0)
        for (index, value) in JSONFields.array(answer["days"]).enumerated() {
            guard let day = value as? [String: Any], let date = JSONFields.text(day["date"]).flatMap(ServiceDate.init) else {
                parsed.problems.append("\(location): days[\(index)] has no date (YYYY-MM-DD): left out")
                continue
            }
            var service = ServiceDay(date: date, meals: [])
            let cafesOfDay = day["cafes"] as? [String: Any] ?? [:]
            for id in cafesOfDay.keys.sorted(by: cafeOrder) where cafes?.contains(id) ?? true {
                guard let cafe = cafesOfDay[id] as? [String: Any] else { continue }
                // The cafés answer spells names the same way, entities read: the two meet.
                let name = JSONFields.text(cafe["name"]).map(BonAppetitText.plain) ?? "café \(id)"
                let dayparts = flattened(cafe["dayparts"])
                if dayparts.isEmpty {
                    parsed.closedCafes += 1
                    parsed.hours.append(.closedDay(name, on: date, reason: "no dayparts published for the day"))
                    continue
                }
                for (position, daypart) in dayparts.enumerated() {
                    let place = "\(location): \(date) cafe \(id) daypart \(position)"
                    guard let meal = JSONFields.text(daypart["label"]) else {
                        parsed.problems.append("\(place) has no label (meal name): left out")
                        continue
                    }
                    parsed.hours.append(HoursEntry(restaurant: name, date: date, meal: meal,
                                                   opens: JSONFields.text(daypart["starttime"]),
                                                   closes: JSONFields.text(daypart["endtime"]), isClosed: false))
                    let sections = reader.sections(of: daypart, place: place)
                    guard !sections.isEmpty else { continue }
                    service.add(ServiceDay(date: date, meals: [
                        Meal(name: meal, restaurants: [Restaurant(name: name, sections: sections)]),
                    ]))
                }
            }
            parsed.days.append(service)
        }
        parsed.foods = reader.foods
        parsed.problems += reader.problems
        return parsed
    }

    /// The object holding `days` and `items`: the answer itself, or one of its values (a wrapper).
    static func menus(in top: [String: Any]) -> [String: Any]? {
        if top["days"] is [Any] { return top }
        for key in top.keys.sorted() {
            if let inner = top[key] as? [String: Any], inner["days"] is [Any] { return inner }
        }
        return nil
    }

    /// Dayparts as objects, whether the answer lists them or lists lists of them, in lists or in
    /// objects keyed by position (`list`).
    static func flattened(_ value: Any?) -> [[String: Any]] {
        list(value).flatMap { element -> [[String: Any]] in
            // A daypart holds text (its id, label, times); an object of dayparts by position, only them.
            if let object = element as? [String: Any], object.isEmpty || !object.values.allSatisfy({ $0 is [String: Any] }) {
                return [object]
            }
            return list(element).compactMap { $0 as? [String: Any] }
        }
    }

    /// A list of the answer's: a JSON array, or an object keyed by position or id (`{"1": …,
    /// "3": …}`), as PHP writes an array whose keys are not 0, 1, 2…: the platform already sends
    /// `cor_icon` either way. The object's values come in its keys' order.
    static func list(_ value: Any?) -> [Any] {
        if let object = value as? [String: Any] {
            return object.keys.sorted(by: cafeOrder).compactMap { object[$0] }
        }
        return JSONFields.array(value)
    }

    /// Ids in numeric order where they are numbers, so that days list their cafés alike.
    static func cafeOrder(_ a: String, _ b: String) -> Bool {
        (Int(a) ?? .max, a) < (Int(b) ?? .max, b)
    }

    private static func describe(_ object: [String: Any]) -> String {
        if let message = JSONFields.text(object["error"]) ?? JSONFields.text(object["message"]) {
            return "an error answer: \"\(message)\""
        }
        return "an object with " + (object.keys.isEmpty ? "no keys" : "keys " + object.keys.sorted().prefix(6).joined(separator: ", "))
    }
}
