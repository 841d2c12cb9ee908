import ArgumentParser
import Basics
import CommandAnswers
import FoodModel
import Foundation
import Snapshot

struct NearCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "near",
        abstract: "List a snapshot's places by great-circle distance from a point, with what they serve that day.",
        discussion: """
            Places and their coordinates come from the `place` table: the pipeline's places file, or \
            the platform (Bon Appétit's cafés answer), or the restaurants of its `hours:` file. \
            Places without coordinates are listed after the others, without a distance. --open-at is \
            read on each place's own clock (its time zone, shown where known), or, with --time-zone, on \
            that zone's clock and turned into each place's.
            """)

    @Option(parsing: .unconditional, help: "Latitude of the point, degrees north.")
    var lat: Double

    @Option(parsing: .unconditional, help: "Longitude of the point, degrees east (negative west).")
    var lon: Double

    @Option(help: "How many places to list.")
    var limit = 10

    @Option(help: "The day whose meals are shown (YYYY-MM-DD); today by default, in --time-zone where given.")
    var date: String?

    @Option(name: .customLong("open-at"),
            help: "A time of day (18:30, or 6:30pm) on each place's clock: which meal each place serves then, from the snapshot's hours.")
    var openAt: String?

    @Option(name: .customLong("time-zone"),
            help: "The IANA zone --date and --open-at are on (America/Chicago): each place with a known zone is then asked at the same instant on its own clock.")
    var timeZone: String?

    @Option(help: "A snapshot file, latest, or latest-<pipeline>.")
    var snapshot = "latest"

    @Option(help: "The workspace whose snapshots/ folder `latest` refers to.")
    var workspace = "."

    @Option(help: "table, json (one array) or jsonl (one object a line).")
    var format: ListFormat = .table

    func validate() throws {
        _ = try request()
    }

    func run() throws {
        let (origin, day, time, clock) = try request()
        let url = try SnapshotLocator(workspace: workspace).resolve(snapshot)
        let listed = try NearbyPlaces.list(in: url, from: origin, on: day, openAt: time, clock: clock, limit: limit)
        if let json = format.json(listed) {
            if !json.isEmpty { answer(json) }
        } else {
            answer(NearbyPlaces.table(listed, openAt: time))
        }
    }

    /// The options as values, read in one place: `validate()` refuses, as a usage error, what
    /// does not read, and `run()` takes the values from here, with no case left to force.
    private func request() throws -> (origin: Coordinates, day: ServiceDate, time: ClockTime?, clock: TimeZone?) {
        guard let origin = Coordinates(latitude: lat, longitude: lon) else {
            throw ValidationError("--lat must be within -90...90 and --lon within -180...180")
        }
        guard limit > 0 else { throw ValidationError("--limit must be at least 1") }
        let time = try openAt.map { text in
            guard let time = ClockTime(text) else {
                throw ValidationError("--open-at must be a time of day such as 18:30 or 6:30pm")
            }
            return time
        }
        let clock = try timeZone.map { name in
            guard let zone = TimeZone(identifier: name) else {
                throw ValidationError("--time-zone must be an IANA time zone such as America/Chicago")
            }
            return zone
        }
        // Today on the clock the question is asked on: a server kept on UTC answering for a
        // campus eight hours behind it is a day ahead every evening.
        var day = ServiceDate.today(in: clock ?? .current)
        if let date {
            guard let given = ServiceDate(date) else { throw ValidationError("--date must be YYYY-MM-DD") }
            day = given
        }
        return (origin, day, time, clock)
    }
}
