import FoodModel

/// Dates as UCLA's pages print them: "October 13, 2019", "Thursday, February 13".
public enum PrintedDates {
    static let monthNames = ["january", "february", "march", "april", "may", "june", "july",
                             "august", "september", "october", "november", "december"]
    static let weekdayNames = ["monday", "tuesday", "wednesday", "thursday", "friday",
                               "saturday", "sunday"]

    /// 1...12 for a full or three-letter month name, any case.
    public static func month(named name: some StringProtocol) -> Int? {
        let folded = name.lowercased()
        guard folded.count >= 3 else { return nil }
        return monthNames.firstIndex { $0 == folded || ($0.hasPrefix(folded) && folded.count == 3) }
            .map { $0 + 1 }
    }

    /// ISO weekday (1 = Monday) for a full or three-letter weekday name, any case.
    public static func weekday(named name: some StringProtocol) -> Int? {
        let folded = name.lowercased()
        guard folded.count >= 3 else { return nil }
        return weekdayNames.firstIndex { $0 == folded || ($0.hasPrefix(folded) && folded.count == 3) }
            .map { $0 + 1 }
    }

    /// Built once: a regex literal written inside a function is rebuilt from its source on
    /// every call. `nonisolated(unsafe)` because `Regex` is not declared `Sendable`, yet a
    /// literal without custom components is safe to share between threads: its program is
    /// compiled lazily behind an atomic initialisation (kept when the conformance was backed
    /// out, swift-experimental-string-processing #474), and matching never mutates it.
    nonisolated(unsafe) private static let absoluteDate =
        /(?<month>[A-Za-z]{3,9})\.?\s+(?<day>\d{1,2}),?\s+(?<year>\d{4})/

    /// The first "Month D, YYYY" anywhere in the text.
    public static func firstAbsoluteDate(in text: String) -> ServiceDate? {
        for match in text.matches(of: absoluteDate) {
            if let month = month(named: match.output.month),
               let day = Int(match.output.day), let year = Int(match.output.year),
               let date = ServiceDate(year: year, month: month, day: day) {
                return date
            }
        }
        return nil
    }
}
