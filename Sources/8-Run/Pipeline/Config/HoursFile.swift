import FoodModel
import Foundation
import YAMLConfig

/// Regular meal times for sources that publish none (`hours: hours/<campus>.yml` beside the
/// pipeline, or under `Pipelines/`): each restaurant's weekly meals with their times, its time
/// zone, and the dates it is closed with their reasons, expanded into `hours` rows for the
/// run's days. Someone types it from the campus's posted hours, so it says where they were read.
public struct HoursFile: Sendable {
    /// One meal served on some weekdays between two times.
    public struct WeeklyMeal: Hashable, Sendable {
        public var meal: String
        /// ISO weekdays, 1 = Monday.
        public var weekdays: Set<Int>
        public var opens: String
        public var closes: String
    }

    /// One restaurant's regular week and its closed dates.
    public struct Schedule: Hashable, Sendable {
        public var restaurant: String
        public var timeZone: String?
        public var meals: [WeeklyMeal]
        /// Dates the restaurant is closed, with the reason where the file gives one.
        public var closed: [ServiceDate: String?]
    }

    public var file: URL
    /// Where the times were read (`source:`): a typed file says what it was typed from.
    public var source: String
    public var campus: String?
    public var schedules: [Schedule]

    /// The `hours` rows of `days`: a closed date is one row marked closed with its reason (as
    /// platforms publish one), any other date a row per meal served on its weekday. Names go
    /// through `rename` (the places file's); a restaurant's day that `published` has rows for
    /// (a source's own hours) keeps those: the file fills the days nothing else speaks of.
    public func entries(on days: [ServiceDate], renaming rename: (String) -> String = { $0 },
                        besides published: [HoursEntry] = []) -> [HoursEntry] {
        let known = Set(published.map { DayOf(restaurant: $0.restaurant, date: $0.date) })
        return days.sorted().flatMap { date in
            schedules.flatMap { schedule -> [HoursEntry] in
                let restaurant = rename(schedule.restaurant)
                guard !known.contains(DayOf(restaurant: restaurant, date: date)) else { return [] }
                if let reason = schedule.closed[date] {
                    return [.closedDay(restaurant, on: date, reason: reason, campus: campus)]
                }
                return schedule.meals.filter { $0.weekdays.contains(date.isoWeekday) }.map {
                    HoursEntry(restaurant: restaurant, date: date, meal: $0.meal, opens: $0.opens,
                               closes: $0.closes, isClosed: false, campus: campus)
                }
            }
        }
    }

    private struct DayOf: Hashable {
        var restaurant: String
        var date: ServiceDate?
    }

    /// Each restaurant as a place, so that `near` lists it and readers know its clock.
    public var places: [Place] {
        schedules.map { Place(name: $0.restaurant, campus: campus, timeZone: $0.timeZone) }
    }
}
