import Foundation

/// A day and a time of day on some clock: what `near --time-zone` turns into each place's own
/// clock, since hours are printed on the place's clock, not the reader's.
public struct WallClock: Hashable, Sendable, CustomStringConvertible {
    public var day: ServiceDate
    public var time: ClockTime

    public init(day: ServiceDate, time: ClockTime) {
        self.day = day
        self.time = time
    }

    /// The same instant on `target`'s clock, this one being on `source`'s; the day may change.
    /// Nil where the calendar cannot say (a time skipped by a clock change is moved by it).
    public func converted(from source: TimeZone, to target: TimeZone) -> WallClock? {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = source
        let parts = DateComponents(year: day.year, month: day.month, day: day.day, hour: time.minutes / 60,
                                   minute: time.minutes % 60)
        guard let instant = calendar.date(from: parts) else { return nil }
        calendar.timeZone = target
        let local = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: instant)
        guard let year = local.year, let month = local.month, let date = local.day, let hour = local.hour,
              let minute = local.minute, let day = ServiceDate(year: year, month: month, day: date),
              let time = ClockTime(minutes: hour * 60 + minute) else { return nil }
        return WallClock(day: day, time: time)
    }

    /// `2022-10-08 12:30`.
    public var description: String { "\(day) \(time)" }
}
