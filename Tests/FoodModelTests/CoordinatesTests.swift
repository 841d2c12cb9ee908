import FoodModel
import Testing

/// Great-circle distances between UCLA's halls (coordinates of the places file), checked by hand
/// with the haversine formula, r = 6,371.0088 km / 3,958.7613 mi (Python's math module).
@Suite struct CoordinatesTests {
    let bruinPlate = Coordinates(latitude: 34.0718, longitude: -118.4500)!

    @Test func distancesBetweenHalls() {
        let deNeve = bruinPlate.distance(to: Coordinates(latitude: 34.0703, longitude: -118.4502)!)
        #expect(abs(deNeve.miles - 0.1043) < 0.00005)
        #expect(abs(deNeve.kilometres - 0.1678) < 0.00005)
        let rieber = bruinPlate.distance(to: Coordinates(latitude: 34.0716, longitude: -118.4514)!)
        #expect(abs(rieber.miles - 0.0813) < 0.00005)
        #expect(bruinPlate.distance(to: bruinPlate).miles == 0)
        // Half the Earth's circumference between antipodes.
        let antipode = Coordinates(latitude: -34.0718, longitude: 61.55)!
        #expect(abs(bruinPlate.distance(to: antipode).kilometres - 3.141592653589793 * 6371.0088) < 0.001)
    }

    @Test func pointsOffTheEarthAreRefused() {
        #expect(Coordinates(latitude: 90.5, longitude: 0) == nil)
        #expect(Coordinates(latitude: 0, longitude: -180.1) == nil)
    }
}
