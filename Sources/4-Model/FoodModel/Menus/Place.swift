import Foundation

/// A dining location as data: its one name (the `restaurant` rows that carry it link to it), what
/// kind of place it is, and where it is, with the public source of its coordinates.
public struct Place: Hashable, Sendable, Codable {
    public var name: String
    public var campus: String?
    /// `residential hall`, `quick service` or `market`.
    public var kind: String?
    public var address: String?
    public var coordinates: Coordinates?
    /// Where the coordinates were read.
    public var coordinatesSource: String?
    /// The IANA name of the zone whose clock the place's hours are printed on
    /// (`America/New_York`); nil when no source says.
    public var timeZone: String?

    public init(name: String, campus: String? = nil, kind: String? = nil, address: String? = nil,
                coordinates: Coordinates? = nil, coordinatesSource: String? = nil, timeZone: String? = nil) {
        self.name = name
        self.campus = campus
        self.kind = kind
        self.address = address
        self.coordinates = coordinates
        self.coordinatesSource = coordinatesSource
        self.timeZone = timeZone
    }

    /// This place with what `other` (the same place from another source) knows and it does not:
    /// a places file someone typed keeps its values, a platform's answer fills the gaps.
    public func filled(from other: Place) -> Place {
        var place = self
        place.campus = campus ?? other.campus
        place.kind = kind ?? other.kind
        place.address = address ?? other.address
        if coordinates == nil {
            place.coordinates = other.coordinates
            place.coordinatesSource = other.coordinatesSource
        }
        place.timeZone = timeZone ?? other.timeZone
        return place
    }

    /// One place per name, in first-seen order: a later entry of a name fills the gaps of the
    /// first (`filled(from:)`), as the `place` table holds one row per name.
    public static func merged(_ places: [Place]) -> [Place] {
        var order: [String] = []
        var byName: [String: Place] = [:]
        for place in places {
            if let known = byName[place.name] {
                byName[place.name] = known.filled(from: place)
            } else {
                order.append(place.name)
                byName[place.name] = place
            }
        }
        return order.compactMap { byName[$0] }
    }

    public static let kinds = ["residential hall", "quick service", "market"]
}

/// A point on the Earth in degrees (WGS 84 as maps give it).
public struct Coordinates: Hashable, Sendable, Codable {
    public var latitude: Double
    public var longitude: Double

    public init?(latitude: Double, longitude: Double) {
        guard (-90...90).contains(latitude), (-180...180).contains(longitude) else { return nil }
        self.latitude = latitude
        self.longitude = longitude
    }

    /// The Earth's mean radius (IUGG): 6,371.0088 km, 3,958.7613 mi.
    static let radiusKilometres = 6371.0088
    static let radiusMiles = 3958.7613

    /// The great-circle distance by the haversine formula,
    /// d = 2r·asin(√(sin²(Δφ/2) + cos φ1·cos φ2·sin²(Δλ/2))), in kilometres and miles.
    public func distance(to other: Coordinates) -> (kilometres: Double, miles: Double) {
        let radians = Double.pi / 180
        let φ1 = latitude * radians, φ2 = other.latitude * radians
        let Δφ = (other.latitude - latitude) * radians, Δλ = (other.longitude - longitude) * radians
        let a = pow(sin(Δφ / 2), 2) + cos(φ1) * cos(φ2) * pow(sin(Δλ / 2), 2)
        let angle = 2 * asin(min(1, a.squareRoot()))
        return (angle * Self.radiusKilometres, angle * Self.radiusMiles)
    }
}
