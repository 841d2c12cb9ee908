import Foundation

/// The remarks printed beside a row of hours (`hours.note`), which may name the meal the row is
/// really of: UCLA's hours page prints weekend brunch in its Lunch column, remarked "(Brunch)",
/// and a cell may add another remark ("(Brunch) (Closed 1:30-2:00PM )", kept as
/// "Brunch; Closed 1:30-2:00PM"). The feeds and `near` read them the same way.
public enum HoursNote {
    /// A note's remarks, each without the brackets around it: "(Brunch)" is "Brunch"; remarks
    /// are kept joined by semicolons.
    public static func remarks(_ note: String?) -> [String] {
        (note ?? "").split(separator: ";").map {
            $0.trimmingCharacters(in: CharacterSet(charactersIn: "()[] ").union(.whitespacesAndNewlines))
        }.filter { !$0.isEmpty }
    }

    /// Whether one of the note's remarks is the name `meal`.
    public static func names(_ meal: String, in note: String?) -> Bool {
        remarks(note).contains { $0.lowercased() == meal.lowercased() }
    }

    /// The meal a row of hours (`rowMeal`, remarked `note`) is of among the meals `served` that
    /// day: its own, when served or when no remark names one that is; else the one its remarks name.
    public static func meal(of rowMeal: String, note: String?, among served: [String]) -> String {
        if served.contains(where: { $0.lowercased() == rowMeal.lowercased() }) { return rowMeal }
        return served.first { names($0, in: note) } ?? rowMeal
    }

    /// The note's remarks but the one naming `meal`: what a reader at the door needs beside the
    /// times ("Closed 1:30-2:00PM", "No Food after 1:00AM").
    public static func remarks(_ note: String?, besides meal: String) -> [String] {
        remarks(note).filter { $0.lowercased() != meal.lowercased() }
    }
}
