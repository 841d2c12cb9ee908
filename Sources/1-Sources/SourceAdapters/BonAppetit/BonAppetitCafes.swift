import Basics
import FoodModel
import Foundation
import SourceReading

/// A Bon Appétit `cafes` answer (`/api/2/cafes?cafe={ids}`, Sources/1-Sources/SourceAdapters/BonAppetit/README.md):
/// each café's name, address, coordinates, time zone and, day by day, whether it is open (with
/// its dayparts' times) or closed (with the reason). It makes the cafés' places and hours, so
/// that neither is typed by hand.
///
/// Every field is found by its name. The `cafes` object may sit at the top or inside a wrapper
/// (Penn's `{result_data: {campuses: {203: {cafes}}}}`); a café that cannot be read costs only
/// itself, and a field the adapter does not know is reported, never guessed at.
public enum BonAppetitCafes {
    public struct Parsed: Sendable {
        /// One per café, in id order.
        public var places: [Place]
        /// An entry per daypart of an open day; one entry marked closed, with its reason, per
        /// closed day. A day the answer gives no status for has none (no data, not closed).
        public var hours: [HoursEntry]
        /// Cafés, days and values left out or read without a value, one line each.
        public var problems: [String]
        /// Café days the answer says are closed.
        public var closedDays: Int
    }

    /// The request for the cafés `cafes`: one per night for all of a source's cafés.
    public static func path(cafes: [String]) -> String {
        "/api/2/cafes?cafe=\(cafes.joined(separator: ","))"
    }

    /// Fields of a café the adapter knows: those it reads, then those it leaves (prose and markup
    /// that repeat what the days say, the café's own icon table, the menus' layout).
    static let knownFields: Set<String> = [
        "name", "address", "city", "state", "zip", "latitude", "longitude", "timezone", "days",
        "description", "message", "eod", "menu_type", "menu_html", "location_detail", "weekly_schedule", "cor_icons",
    ]

    /// Reads an answer; `cafes`, when given, keeps only those cafés, and `days` only those days.
    public static func parse(_ data: Data, cafes wanted: Set<String>? = nil, days: Set<ServiceDate>? = nil,
                             location: String) throws -> Parsed {
        let top = try JSONFields.object(data, location: location, expecting: "a Bon Appétit cafes answer")
        let found = cafeObjects(in: top, depth: 0)
        guard !found.isEmpty else {
            throw Failure.badInput("expected a cafes answer (an object \"cafes\" of cafés by id), found an object with keys "
                                   + top.keys.sorted().prefix(6).joined(separator: ", "), at: location)
        }
        var parsed = Parsed(places: [], hours: [], problems: [], closedDays: 0)
        var unknownFields: Set<String> = []
        for id in found.keys.sorted(by: cafeOrder) where wanted?.contains(id) ?? true {
            guard let cafe = found[id] as? [String: Any] else {
                parsed.problems.append("\(location): café \(id) is not an object: left out")
                continue
            }
            unknownFields.formUnion(Set(cafe.keys).subtracting(knownFields))
            var reader = CafeReader(id: id, location: location, days: days)
            guard let place = reader.place(of: cafe) else {
                parsed.problems += reader.problems
                continue
            }
            parsed.places.append(place)
            parsed.hours += reader.hours(of: cafe, name: place.name)
            parsed.problems += reader.problems
            parsed.closedDays += reader.closedDays
        }
        if !unknownFields.isEmpty {
            parsed.problems.append("\(location): café fields not read (unknown to the adapter): "
                                   + unknownFields.sorted().joined(separator: ", "))
        }
        return parsed
    }

    /// Every `cafes` object of cafés by id, at the top or in wrappers up to four levels down
    /// (an answer about several campuses holds one per campus).
    static func cafeObjects(in object: [String: Any], depth: Int) -> [String: Any] {
        if let cafes = object["cafes"] as? [String: Any], cafes.values.contains(where: { $0 is [String: Any] }) {
            return cafes
        }
        guard depth < 4 else { return [:] }
        var found: [String: Any] = [:]
        for key in object.keys.sorted() {
            guard let inner = object[key] as? [String: Any] else { continue }
            found.merge(cafeObjects(in: inner, depth: depth + 1)) { first, _ in first }
        }
        return found
    }

    /// Café ids in numeric order where they are numbers.
    private static func cafeOrder(_ a: String, _ b: String) -> Bool {
        (Int(a) ?? .max, a) < (Int(b) ?? .max, b)
    }
}

/// Reads one café of a cafés answer, collecting what it could not read.
struct CafeReader {
    let id: String
    let location: String
    let days: Set<ServiceDate>?
    var problems: [String] = []
    var closedDays = 0

    init(id: String, location: String, days: Set<ServiceDate>?) {
        self.id = id
        self.location = location
        self.days = days
    }

    /// Where a problem is, for its line: the answer and the café.
    private var here: String { "\(location): café \(id)" }

    /// The café as a place; nil (reported) without a name, which everything else hangs on.
    mutating func place(of cafe: [String: Any]) -> Place? {
        guard let name = JSONFields.text(cafe["name"]).map(BonAppetitText.plain), !name.isEmpty else {
            problems.append("\(here) has no name: left out")
            return nil
        }
        let coordinates = self.coordinates(of: cafe)
        return Place(name: name, address: address(of: cafe), coordinates: coordinates,
                     coordinatesSource: coordinates == nil ? nil : "Bon Appétit cafes answer (\(location))",
                     timeZone: timeZone(of: cafe))
    }

    /// "3800 Locust Walk, Philadelphia, PA 19104" from its parts, those that are printed.
    private func address(of cafe: [String: Any]) -> String? {
        let region = [cafe["state"], cafe["zip"]].compactMap { JSONFields.text($0) }.joined(separator: " ")
        let parts = [JSONFields.text(cafe["address"]), JSONFields.text(cafe["city"]), region.isEmpty ? nil : region]
            .compactMap { $0 }.map(BonAppetitText.plain)
        return parts.isEmpty ? nil : parts.joined(separator: ", ")
    }

    /// The platform writes `0.00000` for both where it does not know a café's place: unknown,
    /// not a point in the Gulf of Guinea.
    private mutating func coordinates(of cafe: [String: Any]) -> Coordinates? {
        let latitude = JSONFields.number(cafe["latitude"]), longitude = JSONFields.number(cafe["longitude"])
        guard let latitude, let longitude else {
            if cafe["latitude"] != nil || cafe["longitude"] != nil {
                problems.append("\(here): latitude/longitude are not numbers: no coordinates")
            }
            return nil
        }
        if latitude == 0 && longitude == 0 { return nil }
        guard let coordinates = Coordinates(latitude: latitude, longitude: longitude) else {
            problems.append("\(here): latitude \(latitude), longitude \(longitude) are off the Earth: no coordinates")
            return nil
        }
        return coordinates
    }

    private mutating func timeZone(of cafe: [String: Any]) -> String? {
        guard let name = JSONFields.text(cafe["timezone"]) else { return nil }
        guard TimeZone(identifier: name) != nil else {
            problems.append("\(here): time zone \"\(name)\" is no IANA zone: left out")
            return nil
        }
        return name
    }
}
