import FoodModel
import Foundation
import SourceAdapters

/// A folder of UCLA's recipe documents (`recipes/{id}.json`) read as the live feed's adapter
/// reads them: the recipes whose printed labels per 100 g measure the nutrition estimates.
public enum KitchenRecipes {
    public static func read(folder: URL) throws -> [FoodID: Food] {
        let files = try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "json" }
        var foods: [FoodID: Food] = [:]
        for file in files {
            let id = JamixMenuDay.foodId(.recipe, file.deletingPathExtension().lastPathComponent)
            let food = try JamixFoodDocument.parse(try Data(contentsOf: file), foodId: id, location: file.path).food
            foods[food.id] = food
        }
        return foods
    }
}
