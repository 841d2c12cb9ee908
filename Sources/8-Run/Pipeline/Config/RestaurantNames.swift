import Basics
import FoodModel
import Foundation
import YAMLConfig

/// One name per dining location, whatever a source calls it (`Pipelines/places/<campus>.yml`):
/// the normalizing the harvest does as each partition's days come in, so that one hall's menus
/// from 2016, 2019 and 2025 meet in one `restaurant` row.
public struct RestaurantNames: Sendable {
    public var file: URL
    /// Every name and alias, case and spacing folded, to the canonical name.
    private let canonical: [String: String]
    /// Each canonical name as a place, with what the file says of it.
    public var places: [Place]

    /// What renaming depends on (every folded name and the name it becomes), hashed: the
    /// parse cache keeps partitions as renamed, under keys that hold this.
    let namesDigest: String

    public init(file: URL, canonical: [String: String], places: [Place] = []) {
        self.file = file
        self.canonical = canonical
        self.places = places
        namesDigest = sha256Hex(Data(canonical.sorted { $0.key < $1.key }
            .map { "\($0.key)\u{1F}\($0.value)" }.joined(separator: "\n").utf8))
    }

    /// The canonical name of `name`; nil when the file does not list it (it is then kept as
    /// the source prints it, and reported).
    public func canonicalName(of name: String) -> String? {
        canonical[Self.fold(name)]
    }

    /// The day with every restaurant renamed to its canonical name; `unknown` gets the names
    /// the file does not list. Two names of one hall in one meal become one restaurant.
    func normalize(_ day: ServiceDay, unknown: inout Set<String>) -> ServiceDay {
        var day = day
        for mealIndex in day.meals.indices {
            var merged: [Restaurant] = []
            for var restaurant in day.meals[mealIndex].restaurants {
                if let name = canonicalName(of: restaurant.name) {
                    restaurant.name = name
                } else {
                    unknown.insert(restaurant.name)
                }
                if let index = merged.firstIndex(where: { $0.key == restaurant.key }) {
                    merged[index].sections += restaurant.sections
                } else {
                    merged.append(restaurant)
                }
            }
            day.meals[mealIndex].restaurants = merged
        }
        return day
    }

    func normalize(_ hours: [HoursEntry], unknown: inout Set<String>) -> [HoursEntry] {
        hours.map { entry in
            var entry = entry
            if let name = canonicalName(of: entry.restaurant) { entry.restaurant = name } else { unknown.insert(entry.restaurant) }
            return entry
        }
    }

    /// A platform's places under the file's names, so that they meet the file's entries.
    func normalize(_ places: [Place], unknown: inout Set<String>) -> [Place] {
        places.map { place in
            var place = place
            if let name = canonicalName(of: place.name) { place.name = name } else { unknown.insert(place.name) }
            return place
        }
    }

    static func fold(_ name: String) -> String {
        name.lowercased().split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// Reads a places file: `campus`, and `restaurants:` a list of `name` with optional
    /// `aliases`, `kind`, `address`, `latitude` and `longitude` (with `coordinates_source`).
    static func read(_ node: YAMLValue, folder: URL) throws -> RestaurantNames {
        let (file, top) = try YAMLFile.mapping(namedBy: node, beside: folder, what: "places file")
        try top.allowOnly(["campus", "restaurants"])
        let campus = try top.optional("campus")?.string()
        var canonical: [String: String] = [:]
        var places: [Place] = []
        for entry in try top.required("restaurants").sequence() {
            let map = try YAMLMapping(entry)
            try map.allowOnly(["name", "aliases", "kind", "address", "latitude", "longitude", "coordinates_source"])
            let name = try map.required("name").string()
            places.append(try place(name, campus: campus, map))
            for alias in [name] + (try map.optional("aliases")?.sequence().map { try $0.string() } ?? []) {
                if let other = canonical[fold(alias)], other != name {
                    throw entry.error("\"\(alias)\" is already a name of \(other)")
                }
                canonical[fold(alias)] = name
            }
        }
        return RestaurantNames(file: file, canonical: canonical, places: places)
    }

    private static func place(_ name: String, campus: String?, _ map: YAMLMapping) throws -> Place {
        var place = Place(name: name, campus: campus, address: try map.optional("address")?.string())
        if let kindNode = try map.optional("kind") {
            let kind = try kindNode.string()
            guard Place.kinds.contains(kind) else {
                throw kindNode.error("\"\(kind)\" is not a kind of place; kinds: \(Place.kinds.joined(separator: ", "))")
            }
            place.kind = kind
        }
        switch (try map.optional("latitude"), try map.optional("longitude")) {
        case (nil, nil):
            break
        case (let latitude?, let longitude?):
            guard let coordinates = Coordinates(latitude: try latitude.double(in: -90...90),
                                                longitude: try longitude.double(in: -180...180)) else {
                throw latitude.error("not a point on the Earth")
            }
            guard let source = try map.optional("coordinates_source") else {
                throw try map.required("coordinates_source").error("say where the coordinates were read")
            }
            place.coordinates = coordinates
            place.coordinatesSource = try source.string()
        case (let one?, nil), (nil, let one?):
            throw one.error("give both latitude and longitude, or neither")
        }
        return place
    }
}
