import Basics
import Foundation

extension SnapshotDiff {
    /// One line per change, grouped, with `+` added, `-` removed, `~` changed; long values
    /// (instructions, ingredient lists) are named as changed rather than printed whole.
    public func text() -> String {
        guard !isEmpty else { return "No differences in foods, menu items, nutrients or recipes.\n" }
        var lines: [String] = []
        func group(_ title: String, _ entries: [String]) {
            guard !entries.isEmpty else { return }
            lines.append("\(title) (\(entries.count)):")
            lines += entries.map { "  \($0)" }
        }
        group("Foods added", foodsAdded.map { "+ \($0.id) \($0.name)" })
        group("Foods removed", foodsRemoved.map { "- \($0.id) \($0.name)" })
        group("Foods changed", foodsChanged.flatMap { food in
            food.changes.map { "~ \(food.id) \(food.name): \(Self.describe($0))" }
        })
        group("Menu items added", menuItemsAdded.map { "+ \(Self.describe($0))" })
        group("Menu items removed", menuItemsRemoved.map { "- \(Self.describe($0))" })
        group("Nutrients changed", nutrientsChanged.map { change in
            "~ \(change.foodId) \(change.food): \(change.nutrientKey) "
                + Self.describe(FieldChange(field: change.field, old: change.old, new: change.new))
        })
        group("Recipes added", recipesAdded.map { "+ \($0.id) \($0.name)" })
        group("Recipes removed", recipesRemoved.map { "- \($0.id) \($0.name)" })
        group("Recipes changed", recipesChanged.flatMap { recipe in
            recipe.changes.map { "~ \(recipe.id) \(recipe.name): \(Self.describe($0))" }
        })
        return lines.joined(separator: "\n") + "\n"
    }

    /// The diff as one JSON object with snake_case keys; NULL values are JSON `null`.
    public func json() throws -> String {
        String(decoding: try UserJSON.encoder(indented: true).encode(self), as: UTF8.self) + "\n"
    }

    private static func describe(_ item: MenuItem) -> String {
        "\(item.date) \(item.meal), \(item.restaurant) / \(item.section): \(item.item) (\(item.foodId)"
            + (item.portion.map { ", portion \($0)" } ?? "") + ")"
    }

    private static func describe(_ change: FieldChange) -> String {
        let values = [change.old, change.new].map { $0.map { "\"\($0)\"" } ?? "NULL" }
        let short = values.allSatisfy { $0.count <= 60 && !$0.contains("\n") }
        return short ? "\(change.field) \(values[0]) → \(values[1])" : "\(change.field) changed"
    }
}
