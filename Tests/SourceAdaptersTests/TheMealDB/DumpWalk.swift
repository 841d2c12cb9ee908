import Foundation

/// The dump read independently of the code under test, with JSONSerialization, so that counts
/// from the decoder can be checked against counts taken from the raw JSON.
struct DumpWalk {
    struct Slot {
        var mealID: String
        var position: Int
        /// Trimmed, nil when blank.
        var ingredient: String?
        var measure: String?
    }

    var mealIDs: [String]
    var slots: [Slot]

    static func load() throws -> DumpWalk {
        let root = try JSONSerialization.jsonObject(with: try TestData.data(TestData.dumpURL))
        let meals = (root as? [String: Any])?["meals"] as? [[String: Any]] ?? []
        var ids: [String] = []
        var slots: [Slot] = []
        for meal in meals {
            let id = meal["idMeal"] as? String ?? ""
            ids.append(id)
            for position in 1...20 {
                slots.append(Slot(mealID: id, position: position,
                                  ingredient: nonBlank(meal["strIngredient\(position)"]),
                                  measure: nonBlank(meal["strMeasure\(position)"])))
            }
        }
        return DumpWalk(mealIDs: ids, slots: slots)
    }

    private static func nonBlank(_ value: Any?) -> String? {
        guard let text = (value as? String)?.trimmingCharacters(in: .whitespacesAndNewlines),
              !text.isEmpty else { return nil }
        return text
    }
}
