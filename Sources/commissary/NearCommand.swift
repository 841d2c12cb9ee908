import ArgumentParser
import Basics
import FoodModel
import Foundation
import Snapshot

struct NearCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "near",
        abstract: "List a snapshot's places by great-circle distance from a point, with what they serve that day.",
        discussion: """
            Places and their coordinates come from the pipeline's places file (the `place` table). \
            Places without coordinates are listed after the others, without a distance.
            """)

    @Option(parsing: .unconditional, help: "Latitude of the point, degrees north.")
    var lat: Double

    @Option(parsing: .unconditional, help: "Longitude of the point, degrees east (negative west).")
    var lon: Double

    @Option(help: "How many places to list.")
    var limit = 10

    @Option(help: "The day whose meals are shown (YYYY-MM-DD); today by default.")
    var date: String?

    @Option(name: .customLong("open-at"),
            help: "A time of day (18:30, or 6:30pm): which meal each place serves then, from the snapshot's hours.")
    var openAt: String?

    @Option(help: "A snapshot file, latest, or latest-<pipeline>.")
    var snapshot = "latest"

    @Option(help: "The workspace whose snapshots/ folder `latest` refers to.")
    var workspace = "."

    @Option(help: "table, json (one array) or jsonl (one object a line).")
    var format: ListFormat = .table

    func validate() throws {
        guard Coordinates(latitude: lat, longitude: lon) != nil else {
            throw ValidationError("--lat must be within -90...90 and --lon within -180...180")
        }
        guard limit > 0 else { throw ValidationError("--limit must be at least 1") }
        if let date, ServiceDate(date) == nil { throw ValidationError("--date must be YYYY-MM-DD") }
        if let openAt, ClockTime(openAt) == nil { throw ValidationError("--open-at must be a time of day such as 18:30 or 6:30pm") }
    }

    /// One listed place.
    struct Nearby: Encodable {
        var place: String
        var kind: String?
        var miles: Double?
        var kilometres: Double?
        /// The meals the snapshot has at the place on the day, in the order served.
        var serving: [String]
        /// With `--open-at`: the meals open at that time, with their hours as printed; nil
        /// when the snapshot has no hours for the place that day.
        var openAt: [String]?
    }

    func run() throws {
        let url = try SnapshotLocator(workspace: workspace).resolve(snapshot)
        let places = try SnapshotReader.places(of: url)
        guard !places.isEmpty else {
            throw Failure(.snapshot, "the snapshot has no places: its pipeline names no places file (places:)", at: url.path)
        }
        let origin = Coordinates(latitude: lat, longitude: lon)!
        let day = date ?? localToday().description
        let serving = try SnapshotReader.mealsByPlace(of: url, on: ServiceDate(day)!)
        let time = openAt.flatMap(ClockTime.init)
        let hours = time == nil ? [:] : try SnapshotReader.hoursByPlace(of: url, on: ServiceDate(day)!)
        let listed = places.map { place -> Nearby in
            let distance = place.coordinates.map(origin.distance(to:))
            let open = time.flatMap { time in
                hours[place.name].map { openings in
                    openings.filter { $0.isServing(at: time) }.map { "\($0.meal) \($0.opens ?? "")–\($0.closes ?? "")" }
                }
            }
            return Nearby(place: place.name, kind: place.kind, miles: distance?.miles, kilometres: distance?.kilometres,
                          serving: serving[place.name] ?? [], openAt: open)
        }
        .sorted { ($0.miles ?? .infinity, $0.place) < ($1.miles ?? .infinity, $1.place) }
        .prefix(limit)
        if let json = format.json(Array(listed)) {
            if !json.isEmpty { answer(json) }
        } else {
            answer(Self.table(Array(listed), day: day, openAt: time))
        }
    }

    /// The meals open at the time asked, `closed`, or `hours unknown` without hours that day.
    private static func openCell(_ open: [String]?) -> String {
        guard let open else { return "hours unknown" }
        return open.isEmpty ? "closed" : open.joined(separator: ", ")
    }

    static func table(_ places: [Nearby], day: String, openAt time: ClockTime?) -> String {
        let rows = places.map { place -> [String] in
            var row = [TerminalText.oneLine(place.place), TerminalText.oneLine(place.kind ?? ""),
                       place.miles.map { String(format: "%.2f", $0) } ?? "",
                       place.kilometres.map { String(format: "%.2f", $0) } ?? ""]
            row.append(place.serving.isEmpty ? "nothing on \(day)" : TerminalText.oneLine(place.serving.joined(separator: ", ")))
            if time != nil { row.append(openCell(place.openAt)) }
            return row
        }
        var header = ["place", "kind", "mi", "km", "serving"]
        if let time { header.append("open at \(time)") }
        let widths = header.indices.map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
        return ([header] + rows).map { row in
            row.enumerated().map { column, cell in
                column == 2 || column == 3 ? String(repeating: " ", count: widths[column] - cell.count) + cell
                    : cell.padding(toLength: widths[column], withPad: " ", startingAt: 0)
            }.joined(separator: "  ").trimmingCharacters(in: .whitespaces)
        }.joined(separator: "\n")
    }
}
