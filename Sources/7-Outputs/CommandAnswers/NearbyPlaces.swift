import Basics
import FoodModel
import Foundation
import Snapshot

/// What `commissary near` answers: a snapshot's places by great-circle distance from a point,
/// with the meals each serves on a day and, at a time of day, which of them are open. Places
/// without coordinates come after the others, without a distance. The time of day is read on
/// each place's own clock, the one its hours are printed on (its `time_zone`, shown where known),
/// unless a clock is named: then it is that clock's, and each place with a known zone is asked
/// at the same instant on its own clock (which may be another day).
public enum NearbyPlaces {
    /// One listed place.
    public struct Place: Encodable, Sendable {
        public var place: String
        public var kind: String?
        /// The IANA zone of the place's clock, where a source says.
        public var timeZone: String?
        public var miles: Double?
        public var kilometres: Double?
        /// The day `serving` is of: the day asked, or with a clock and a time named, the place's
        /// own day at that instant, the one its `open_at` is read on.
        public var day: String
        /// The meals the snapshot has at the place on `day`, in the order served.
        public var serving: [String]
        /// With a time of day: the meals open then, with their hours as printed; nil when the
        /// snapshot has no hours for the place that day.
        public var openAt: [String]?
        /// With a time of day: why the place is closed all day, where its source says.
        public var closedBecause: String?
        /// With a clock named: the day and time asked, on the place's clock (`2022-10-08 12:30`);
        /// nil where the place's zone is unknown (the time is then read as given).
        public var localTime: String?
    }

    /// The `limit` places nearest `origin` in the snapshot at `url`, nearest first; `clock` is
    /// the zone `day` and `time` are on (nil: each place's own).
    public static func list(in url: URL, from origin: Coordinates, on day: ServiceDate, openAt time: ClockTime?,
                            clock: TimeZone? = nil, limit: Int) throws -> [Place] {
        let places = try SnapshotReader.places(of: url)
        guard !places.isEmpty else {
            throw Failure(.snapshot, "the snapshot has no places: its pipeline names no places or hours file (places:, hours:) "
                          + "and its platform publishes none", at: url.path)
        }
        let asked = places.map { place in time.map { moment(WallClock(day: day, time: $0), clock: clock, at: place) } }
        // Each day asked and the day before it, whose openings past midnight run into it.
        let hoursDays = Set(asked.compactMap { $0?.day }.flatMap { [$0, $0.adding(days: -1)] })
        var serving: [ServiceDate: [String: [String]]] = [:]
        for day in hoursDays.union([day] + asked.compactMap { $0?.day }) {
            serving[day] = try SnapshotReader.mealsByPlace(of: url, on: day)
        }
        var hours: [ServiceDate: [String: [PlaceHours]]] = [:]
        for day in hoursDays {
            hours[day] = try SnapshotReader.hoursByPlace(of: url, on: day)
        }
        let listed = zip(places, asked).map { place, moment -> Place in
            let distance = place.coordinates.map(origin.distance(to:))
            let openings = moment.flatMap { hours[$0.day]?[place.name] }
            let open = moment.flatMap { moment -> [String]? in
                let dayBefore = moment.day.adding(days: -1)
                let carried = (hours[dayBefore]?[place.name] ?? []).filter { $0.isServingAfterMidnight(at: moment.time) }
                guard openings != nil || !carried.isEmpty else { return nil }
                let openNow = carried.map { ($0, dayBefore) }
                    + (openings ?? []).filter { $0.isServing(at: moment.time) }.map { ($0, moment.day) }
                // Serving nothing that can be read, beside hours that cannot: not known, not closed.
                if openNow.isEmpty, (openings ?? []).contains(where: \.hasUnreadableTimes) { return nil }
                return openNow.map { opening, day in
                    opened(opening, among: serving[day]?[place.name] ?? [])
                }
            }
            let placeDay = moment?.day ?? day
            return Place(place: place.name, kind: place.kind, timeZone: place.timeZone, miles: distance?.miles,
                         kilometres: distance?.kilometres, day: placeDay.description,
                         serving: serving[placeDay]?[place.name] ?? [], openAt: open,
                         closedBecause: closedReason(openings),
                         localTime: clock != nil && place.timeZone != nil ? moment?.description : nil)
        }
        .sorted { ($0.miles ?? .infinity, $0.place) < ($1.miles ?? .infinity, $1.place) }
        return Array(listed.prefix(limit))
    }

    /// An opening as the place serves it: the meal its menus name (a Lunch row remarked "Brunch"
    /// on a day that serves Brunch is Brunch), its times as printed, and any other remark
    /// ("Late Night 9:00pm–2:00am (No Food after 1:00AM)").
    private static func opened(_ opening: PlaceHours, among served: [String]) -> String {
        let meal = HoursNote.meal(of: opening.meal, note: opening.note, among: served)
        let remarks = HoursNote.remarks(opening.note, besides: meal)
        return "\(meal) \(opening.opens ?? "")–\(opening.closes ?? "")"
            + (remarks.isEmpty ? "" : " (\(remarks.joined(separator: "; ")))")
    }

    /// The moment asked, on the place's clock where both clocks are known; as given otherwise.
    private static func moment(_ asked: WallClock, clock: TimeZone?, at place: FoodModel.Place) -> WallClock {
        guard let clock, let zone = place.timeZone.flatMap(TimeZone.init(identifier:)) else { return asked }
        return asked.converted(from: clock, to: zone) ?? asked
    }

    /// Aligned columns under a header, distances right-aligned; names from the places file are
    /// shown on one line whatever they hold.
    public static func table(_ places: [Place], openAt time: ClockTime?) -> String {
        // The zone's column only where a source named one: the clock the hours are read on; the
        // place's own time only where a clock was named, which may put it on another day.
        let zoned = time != nil && places.contains { $0.timeZone != nil }
        let localized = places.contains { $0.localTime != nil }
        let rows = places.map { place -> [String] in
            var row = [TerminalText.oneLine(place.place), TerminalText.oneLine(place.kind ?? ""),
                       place.miles.map { String(format: "%.2f", $0) } ?? "",
                       place.kilometres.map { String(format: "%.2f", $0) } ?? ""]
            row.append(place.serving.isEmpty ? "nothing on \(place.day)" : TerminalText.oneLine(place.serving.joined(separator: ", ")))
            if time != nil { row.append(openCell(place)) }
            if zoned { row.append(place.timeZone ?? "") }
            if localized { row.append(place.localTime ?? "") }
            return row
        }
        var header = ["place", "kind", "mi", "km", "serving"]
        if let time { header.append("open at \(time)") }
        if zoned { header.append("time zone") }
        if localized { header.append("their time") }
        let widths = header.indices.map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
        return ([header] + rows).map { row in
            row.enumerated().map { column, cell in
                column == 2 || column == 3 ? String(repeating: " ", count: widths[column] - cell.count) + cell
                    : cell.padding(toLength: widths[column], withPad: " ", startingAt: 0)
            }.joined(separator: "  ").trimmingCharacters(in: .whitespaces)
        }.joined(separator: "\n")
    }

    /// The reason a place closed all day gives: every opening of the day closed, one with a note.
    private static func closedReason(_ openings: [PlaceHours]?) -> String? {
        guard let openings, !openings.isEmpty, openings.allSatisfy(\.isClosed) else { return nil }
        return openings.compactMap(\.note).first
    }

    /// The meals open at the time asked, `closed` (with its reason), or `hours unknown` without
    /// hours that day.
    private static func openCell(_ place: Place) -> String {
        guard let open = place.openAt else { return "hours unknown" }
        guard open.isEmpty else { return open.joined(separator: ", ") }
        return place.closedBecause.map { "closed (\(TerminalText.oneLine($0)))" } ?? "closed"
    }
}
