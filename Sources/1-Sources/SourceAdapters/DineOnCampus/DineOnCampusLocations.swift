import Basics
import FoodModel
import Foundation
import SourceReading

/// A site's locations, from `/v1/locations/all_locations?platform=0&site_id={siteId}&for_menus=true&with_buildings=true`.
/// The answer lists locations under `locations`, at its top or inside each of its `buildings`;
/// every object with an id and a name in a list named `locations`, wherever it stands, is one,
/// in the order first met and once each.
enum DineOnCampusLocations {
    static func path(site: String) -> String {
        "/v1/locations/all_locations?platform=0&site_id=\(site)&for_menus=true&with_buildings=true"
    }

    static func read(_ data: Data, location: String) throws -> [DineOnCampusAdapter.Place] {
        let answer = try JSONFields.object(data, location: location, expecting: "the site's locations")
        if let status = JSONFields.text(answer["status"]), status.lowercased() != "success" {
            let message = JSONFields.text(answer["msg"]) ?? JSONFields.text(answer["message"]) ?? "no message"
            throw Failure.badInput("the API answered status \"\(status)\": \(message)", at: location)
        }
        var places: [DineOnCampusAdapter.Place] = []
        func walk(_ value: Any, underLocations: Bool) {
            switch value {
            case let object as [String: Any]:
                if underLocations, let id = JSONFields.identifier(object["id"]), let name = JSONFields.text(object["name"]),
                   !places.contains(where: { $0.id == id }) {
                    places.append(DineOnCampusAdapter.Place(id: id, name: name))
                }
                for key in object.keys.sorted() where key != "id" {
                    walk(object[key] as Any, underLocations: key == "locations")
                }
            case let list as [Any]:
                for element in list { walk(element, underLocations: underLocations) }
            default:
                break
            }
        }
        walk(answer, underLocations: false)
        guard !places.isEmpty else {
            throw Failure.badInput("the site's answer lists no location (an object with id and name under `locations`)",
                                   at: location)
        }
        return places
    }
}
