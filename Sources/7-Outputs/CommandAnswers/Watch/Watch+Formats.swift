import Basics
import FoodModel
import Snapshot

extension Watch.Answer {
    /// For cron mail: nothing at all when nothing matched (cron mails only output), else a line
    /// saying what was read, then one line per item, `new` in front of those new tonight.
    public var text: String {
        guard !matches.isEmpty else { return "" }
        let fresh = matches.count(where: \.isNew)
        let since = comparedWith.map { "\(fresh) new since \($0)" } ?? "none marked new: no earlier snapshot to compare with"
        let header = "\(matches.count) watched item(s) from \(today) in \(snapshot); \(since)"
        return ([header] + matches.map(\.line)).joined(separator: "\n")
    }

    /// For a push service: the answer as one JSON object (docs/watch.md).
    public var json: String {
        UserJSON.line(JSONAnswer(snapshot: snapshot, today: today, comparedWith: comparedWith,
                                 matches: matches.map(JSONMatch.init)))
    }
}

extension Watch.Match {
    /// `new  2025-04-09 Wed  Dinner 5:00pm–9:00pm  De Neve (UCLA), Grill: Chicken Tikka Masala  [item tikka]`,
    /// the meal's hours as printed where the source prints them, with the remarks printed beside
    /// them, `(closed, as the source says)` where it says so; names from the feed shown on one
    /// line whatever they hold.
    var line: String {
        let place = item.restaurant + (item.campus.map { " (\($0))" } ?? "") + ", " + item.section
        let text = "\(item.date) \(weekday)  \(item.meal)\(hours)  \(place): \(item.item)"
            + "  [\(watches.joined(separator: "; "))]"
        return (isNew ? "new  " : "     ") + TerminalText.oneLine(text)
    }

    private var hours: String {
        let said = remarks.joined(separator: "; ")
        if let opening { return " \(opening.opens ?? "")–\(opening.closes ?? "")" + (said.isEmpty ? "" : " (\(said))") }
        guard closure != nil else { return "" }
        return " (closed, as the source says" + (said.isEmpty ? "" : ": \(said)") + ")"
    }

    /// What the meal's hours row remarks besides naming the meal ("Closed 1:30-2:00PM", a
    /// closed meal's reason), as the feeds say it.
    var remarks: [String] {
        HoursNote.remarks((opening ?? closure)?.note, besides: item.meal)
    }

    private static let weekdays = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]

    /// The day of the week, from the date itself; from the row's `weekday` (1 for Monday) only
    /// where the date cannot be read, and then whatever number a damaged row holds.
    private var weekday: String {
        if let date = ServiceDate(item.date) { return Self.weekdays[date.isoWeekday - 1] }
        return Self.weekdays[((item.weekday - 1) % 7 + 7) % 7]
    }
}

/// The JSON shape, snake_case as every JSON the program writes.
private struct JSONAnswer: Encodable {
    var snapshot: String
    var today: ServiceDate
    var comparedWith: String?
    var matches: [JSONMatch]

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(snapshot, forKey: .snapshot)
        try container.encode(today, forKey: .today)
        // Written as null rather than left out, so a client reads one shape.
        try container.encode(comparedWith, forKey: .comparedWith)
        try container.encode(matches, forKey: .matches)
    }

    enum CodingKeys: String, CodingKey {
        case snapshot, today, comparedWith, matches
    }
}

private struct JSONMatch: Encodable {
    var date: String
    var weekday: Int
    var meal: String
    var restaurant: String
    var campus: String?
    var section: String
    var item: String
    var foodId: String
    var food: String
    var terms: [String]
    var mayContain: [String]
    var new: Bool
    var watches: [String]
    /// `HH:MM`, 24-hour, local to the restaurant, as the feeds' JSON; left out where the source
    /// publishes no hours for the meal.
    var opens: String?
    var closes: String?
    /// The source says the meal is closed that day (its menu listed all the same).
    var closed: Bool
    /// What the hours row remarks besides naming the meal; empty where it remarks nothing.
    var remarks: [String]

    init(_ match: Watch.Match) {
        let item = match.item
        (date, weekday, meal, restaurant, campus, section) = (item.date, item.weekday, item.meal, item.restaurant,
                                                              item.campus, item.section)
        (self.item, foodId, food, terms, mayContain, new, watches) = (item.item, item.foodID, item.food, item.terms,
                                                                      item.mayContain, match.isNew, match.watches)
        opens = match.opening?.opens.flatMap(ClockTime.init)?.description
        closes = match.opening?.closes.flatMap(ClockTime.init)?.description
        closed = match.closure != nil
        remarks = match.remarks
    }
}
