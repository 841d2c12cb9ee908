import Basics
import FoodModel
import Foundation
import GRDB

extension StagingSnapshot {
    /// Writes the pipeline's places (its places file's, filled from its platforms') and links each restaurant of the same name to its place, in
    /// one transaction, after the menus: restaurants are named by the places file as days come in.
    public func write(places: [Place]) throws {
        guard !places.isEmpty else { return }
        let queue = try self.queue
        do {
            try queue.write { db in
                let insert = try db.cachedStatement(sql: """
                    INSERT INTO place (name, campus, kind, address, latitude, longitude, coordinates_source, time_zone)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                    """)
                for place in places {
                    try insert.execute(arguments: [
                        place.name, place.campus, place.kind, place.address, place.coordinates?.latitude,
                        place.coordinates?.longitude, place.coordinatesSource, place.timeZone,
                    ])
                }
                // A restaurant of a campus is only the place of its name on that campus (or on none),
                // and takes the campus of its place where its source named none.
                try db.execute(sql: """
                    UPDATE restaurant SET place_name = name,
                        campus = coalesce(campus, (SELECT p.campus FROM place p WHERE p.name = restaurant.name))
                    WHERE EXISTS (SELECT 1 FROM place p WHERE p.name = restaurant.name
                                  AND (restaurant.campus IS NULL OR p.campus IS NULL OR p.campus = restaurant.campus))
                    """)
            }
        } catch {
            throw Failure(.fileSystem, "cannot write the places: \(plainMessage(error))", at: url.path, cause: error)
        }
    }
}

extension SnapshotReader {
    /// The places of a snapshot (none when its pipeline names no places file, or its schema is older).
    public static func places(of url: URL) throws -> [Place] {
        try SnapshotReader.read(url) { db in
            guard try db.tableExists("place") else { return [] }
            // `time_zone` came with schema 21; an older snapshot's places have none.
            let zoned = try db.columns(in: "place").contains { $0.name == "time_zone" }
            return try Row.fetchAll(db, sql: "SELECT * FROM place ORDER BY name").map { row in
                let latitude: Double? = try row.decode(forColumn: "latitude")
                let longitude: Double? = try row.decode(forColumn: "longitude")
                return try Place(name: row.decode(forColumn: "name"), campus: row.decode(forColumn: "campus"),
                                 kind: row.decode(forColumn: "kind"), address: row.decode(forColumn: "address"),
                                 coordinates: latitude.flatMap { latitude in
                                     longitude.flatMap { Coordinates(latitude: latitude, longitude: $0) }
                                 },
                                 coordinatesSource: row.decode(forColumn: "coordinates_source"),
                                 timeZone: zoned ? row.decode(forColumn: "time_zone") : nil)
            }
        }
    }
}
