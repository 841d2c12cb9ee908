import Basics
import FoodModel
import Foundation
import YAMLConfig

/// Reads an `hours:` file; every error names the file, the line and the key.
///
///     campus: St. Olaf                 # optional: the rows' campus
///     time_zone: America/Chicago       # optional: every restaurant's, unless it names its own
///     source: posted hours, fall 2016  # required: where the times were read
///     restaurants:
///       - name: Stav Hall
///         meals:
///           - {meal: Breakfast, days: [mon, tue, wed, thu, fri], opens: "07:00", closes: "09:45"}
///         closed:
///           - {date: 2016-11-24, reason: Thanksgiving}
extension HoursFile {
    static func read(_ node: YAMLValue, folder: URL) throws -> HoursFile {
        let (file, top) = try YAMLFile.mapping(namedBy: node, beside: folder, what: "hours file")
        try top.allowOnly(["campus", "time_zone", "source", "restaurants"])
        let source = try top.required("source").string()
        let zone = try top.optional("time_zone").map(timeZone)
        var schedules: [Schedule] = []
        for entry in try top.required("restaurants").sequence() {
            let schedule = try self.schedule(YAMLMapping(entry), zone: zone)
            if schedules.contains(where: { $0.restaurant == schedule.restaurant }) {
                throw entry.error("\"\(schedule.restaurant)\" is listed twice")
            }
            schedules.append(schedule)
        }
        return HoursFile(file: file, source: source, campus: try top.optional("campus")?.string(), schedules: schedules)
    }

    private static func schedule(_ map: YAMLMapping, zone: String?) throws -> Schedule {
        try map.allowOnly(["name", "time_zone", "meals", "closed"])
        var closed: [ServiceDate: String?] = [:]
        for entry in try map.optional("closed")?.sequence() ?? [] {
            let day = try YAMLMapping(entry)
            try day.allowOnly(["date", "reason"])
            closed[try day.required("date").date()] = .some(try day.optional("reason")?.string())
        }
        return Schedule(restaurant: try map.required("name").string(),
                        timeZone: try map.optional("time_zone").map(timeZone) ?? zone,
                        meals: try (map.optional("meals")?.sequence() ?? []).map(meal), closed: closed)
    }

    private static func meal(_ node: YAMLValue) throws -> WeeklyMeal {
        let map = try YAMLMapping(node)
        try map.allowOnly(["meal", "days", "opens", "closes"])
        let daysNode = try map.required("days")
        let weekdays = try daysNode.sequence().map(weekday)
        guard !weekdays.isEmpty else { throw daysNode.error("name at least one day (days: [mon, tue])") }
        return WeeklyMeal(meal: try map.required("meal").string(), weekdays: Set(weekdays),
                          opens: try time(map.required("opens")), closes: try time(map.required("closes")))
    }

    private static let weekdays = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]

    /// `mon` or `monday`, any case: its ISO number.
    private static func weekday(_ node: YAMLValue) throws -> Int {
        let text = try node.string().lowercased()
        guard let index = weekdays.firstIndex(where: { $0 == text || $0.prefix(3) == text }) else {
            throw node.error("\"\(text)\" is not a day of the week (mon ... sun, or monday ... sunday)")
        }
        return index + 1
    }

    /// A time as hours pages print it (`07:00`, `7:00am`), kept as written.
    private static func time(_ node: YAMLValue) throws -> String {
        let text = try node.string()
        guard ClockTime(text) != nil else { throw node.error("\"\(text)\" is not a time of day (07:00, or 7:00am)") }
        return text
    }

    private static func timeZone(_ node: YAMLValue) throws -> String {
        let name = try node.string()
        guard TimeZone(identifier: name) != nil else {
            throw node.error("\"\(name)\" is not an IANA time zone (America/Chicago)")
        }
        return name
    }
}
