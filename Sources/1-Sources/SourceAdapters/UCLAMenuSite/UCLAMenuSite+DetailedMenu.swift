import Basics
import FoodModel
import Foundation
import HTML
import SourceReading

extension UCLAMenuSite {
    /// Reads a hall's detailed menu (`/Menus/{Hall}/{date}/{Meal}`): its stations and items.
    ///
    /// The page names neither hall nor meal in a form worth trusting; the caller knows both
    /// from the URL it asked for.
    public static func parseDetailedMenu(_ data: Data, url: String, charset: String?) throws -> [Section] {
        try withPage(data, url: url, charset: charset) { page in
            let stations = try page.select(anywhere("li", class: "sect-item"))
            guard !stations.isEmpty else {
                throw Failure.badInput("no stations (li.sect-item) found: not a detailed menu page, or its layout changed",
                                       at: url)
            }
            return try MenuListParser.sections(stations, url: url)
        }
    }
}
