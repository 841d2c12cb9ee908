import Basics
import FoodModel
import Fetching
import Foundation
import SourceReading

/// One partition per service day: for each location, the day's default answer (which lists the
/// day's periods), then one request per other period. A closed location adds no meals and one
/// hours row saying it is closed (the answer gives no reason); periods carry no times, so the
/// other hours come from the pipeline's `hours:` file, if any. A location whose answer cannot be
/// fetched or read (a refused `status`, a body cut short) is one part of the day not read
/// (`PartitionResult.incomplete`): the other locations are read, and the run keeps the day's
/// last good version instead where that version has the location, or publishes the rest.
struct DineOnCampusHarvester: Harvester {
    let source: SourceSpec
    /// The API root (`https://api.dineoncampus.com`).
    let base: String
    let days: [ServiceDate]
    let locations: [DineOnCampusAdapter.Place]
    /// The site whose locations are listed by the API, when the pipeline names none.
    let site: String?

    var partitions: [String] { days.map(\.description) }

    static func path(location: String, period: String?, date: ServiceDate) -> String {
        "/v1/location/\(LinkedId.pathSegment(location))/periods" + (period.map { "/\(LinkedId.pathSegment($0))" } ?? "")
            + "?platform=0&date=\(date)"
    }

    func harvest(partition: String, from documents: any DocumentReader, run: RunContext) async throws
        -> PartitionResult {
        guard let date = ServiceDate(partition) else {
            throw Failure.badInput("partition \(partition) is not a date", at: source.name)
        }
        var answers: [(restaurant: String, answer: DineOnCampusMenu.Answer)] = []
        var closedDay: [HoursEntry] = []
        var refused: [String] = []
        var locations = self.locations
        if let site {
            let url = base + DineOnCampusLocations.path(site: site)
            locations = try DineOnCampusLocations.read(try await documents.fetchShared(url, readers: days.count, run: run).body,
                                                       location: url)
            // The listing's ids become the paths of the menus asked for next.
            for location in locations where !LinkedId.lettersAndDigits.accepts(location.id) {
                refused.append("\(url): location \(String(reflecting: location.name)): "
                               + LinkedId.lettersAndDigits.refusal(of: location.id, field: "id"))
            }
            locations.removeAll { !LinkedId.lettersAndDigits.accepts($0.id) }
        }
        var incomplete: [PartNotRead] = []
        var firstFailure: (any Error)?
        /// The answer at `url`, or nil, said in `incomplete`, when it cannot be fetched or read.
        /// A period's menu is a part of its location's (`period`), whose first answer lists it.
        func answer(_ url: String, of location: DineOnCampusAdapter.Place, period: String?) async throws
            -> DineOnCampusMenu.Answer? {
            do {
                return try DineOnCampusMenu.read(try await documents.fetch(url).body, restaurant: location.name,
                                                 location: url)
            } catch {
                // A run asked to stop ends here, not with a day missing what it did not ask.
                if Task.isCancelled { throw error }
                let whole = "\(date): \(location.name)'s menu"
                let part = period.map { "\(date): \(location.name)'s \($0) menu" }
                incomplete.append(PartNotRead(part ?? whole, within: part == nil ? nil : whole, because: error))
                firstFailure = firstFailure ?? error
                return nil
            }
        }
        for location in locations {
            let url = base + Self.path(location: location.id, period: nil, date: date)
            guard let first = try await answer(url, of: location, period: nil) else { continue }
            if first.closed {
                closedDay.append(.closedDay(location.name, on: date, reason: nil))
                continue
            }
            answers.append((location.name, first))
            for period in first.periods where !first.served.contains(where: { $0.id == period.id }) {
                guard LinkedId.lettersAndDigits.accepts(period.id) else {
                    refused.append("\(url): period \(String(reflecting: period.name)): "
                                   + LinkedId.lettersAndDigits.refusal(of: period.id, field: "id"))
                    continue
                }
                let periodURL = base + Self.path(location: location.id, period: period.id, date: date)
                guard let periodAnswer = try await answer(periodURL, of: location, period: period.name) else { continue }
                if !periodAnswer.closed { answers.append((location.name, periodAnswer)) }
            }
        }
        // Nothing read at all (the API down, every location refused) is a failed day, not an
        // empty one.
        if answers.isEmpty, closedDay.isEmpty, let firstFailure { throw firstFailure }
        let parsed = DineOnCampusMenu.day(answers, date: date)
        var dataset = Dataset(serviceDays: [parsed.day], hours: closedDay)
        for food in parsed.foods { dataset.foods[food.id] = food }
        let counts = ["closed_locations": closedDay.count, PartitionResult.itemsInUnnamedSections: parsed.itemsInUnnamedSections]
        return PartitionResult(dataset: dataset, warnings: refused + parsed.problems, counts: counts,
                               labels: parsed.foods, incomplete: incomplete)
    }
}
