import Basics
import FoodModel
import Foundation
import Nutrition

/// Everything the food tables and the nutrition review are made from, as one digest: the foods
/// as computed, the menus' foods (the name and description of their first appearance, every code
/// and portion printed beside them), the legend, the daily values, the foods whose label was a
/// label of zeros, and the build that makes rows and findings of them. A continued night whose
/// digest is the latest snapshot's keeps both as that snapshot has them, without making their
/// rows or reviewing a label (`StagingSnapshot.finish`, `StagingSnapshot.keepReview`): most
/// nights change no food, and the two were a tenth of a night with one day changed.
///
/// One value left out would keep rows or findings that should have changed:
/// `FoodInputsTests` changes each input in turn.
enum FoodInputs {
    static func digest(foods: [FoodID: Food], menus: MenuDigest, legend: [DietaryCode], standard: DailyValueStandard?,
                       unfilled: [FoodID]) -> String {
        // Each food's bytes hashed apart, on every core: laid end to end, the foods' megabytes
        // were copied as their buffer grew, and the digest cost half of what it saves.
        let foodDigests = foods.values.sorted { $0.id < $1.id }.mappedOnEveryCore(minimumCount: 256) { food in
            sha256Hex(FoodBytes.encode([food]))
        }
        var bytes = FieldWriter()
        bytes.put("food inputs 1")
        bytes.put(CommissaryVersion.build)
        bytes.put(foodDigests)
        let printed = menus.foods.sorted { $0.key < $1.key }
        bytes.put(printed.count)
        for (id, food) in printed {
            bytes.put(id.description)
            bytes.put(food.name)
            bytes.put(food.description)
            bytes.put(food.codes.sorted())
            bytes.put(food.portions.sorted())
        }
        // In the legend's order, which numbers the codes' rows.
        bytes.put(legend.count)
        for code in legend {
            bytes.put(code.code)
            bytes.put(code.label)
            bytes.put(code.kind.rawValue)
            bytes.put(code.terms)
            bytes.put(code.presence.rawValue)
        }
        bytes.put(present: standard != nil)
        if let standard {
            bytes.put(standard.name)
            bytes.put(standard.description)
            let values = standard.values.sorted { $0.key < $1.key }
            bytes.put(values.count)
            for (key, value) in values {
                bytes.put(key.rawValue)
                bytes.put(value.amount)
                bytes.put(value.unit.rawValue)
            }
            bytes.put(standard.dailyReferenceValues.map(\.rawValue).sorted())
        }
        bytes.put(unfilled.map(\.description))
        return sha256Hex(Data(bytes.bytes))
    }
}
