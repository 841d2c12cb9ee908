import FoodModel
import Snapshot

/// A partition's days made ready on the partition's own task, where several are read side by
/// side, so that the run's task, which takes the partitions one after another, only numbers
/// their label versions and adds them up: the names normalized (`init(normalizing:)`), each day's rows
/// hashed but for the versions (`DayToWrite`) and its share of the menus' digest gathered
/// (`MenuDigest.Day`). What normalizing found is kept here to be reported in partition order.
struct PreparedDays: Sendable {
    struct Day: Sendable {
        let rows: DayToWrite
        let menus: MenuDigest.Day
    }

    var days: [Day]
    /// Restaurant names the places file does not list.
    let unknownRestaurants: Set<String>
    /// The names cut to size.
    let longNames: LongNames
    /// The line saying the partition's text holds U+FFFD, when it does.
    let warnings: [String]

    init(days: [Day], unknownRestaurants: Set<String>, longNames: LongNames, warnings: [String]) {
        self.days = days
        self.unknownRestaurants = unknownRestaurants
        self.longNames = longNames
        self.warnings = warnings
    }

    /// What normalizing a partition of `work` depends on besides what it read: its source's
    /// campus and the places file's names. The parse cache keeps partitions prepared, under keys
    /// that hold this (`PartitionWork.parseCacheKey`).
    static func inputs(of work: PartitionWork, places: RestaurantNames?) -> String {
        "campus \(String(reflecting: work.harvester.source.campus)) names \(places?.namesDigest ?? "none")"
    }

    /// How many menu items the days hold.
    var menuItemCount: Int {
        days.reduce(0) { $0 + $1.menus.itemCount }
    }

    /// Normalizes `dataset`, the partition's result (names cut to size, one name per restaurant
    /// as the places file says, the source's campus), and prepares its days.
    init(normalizing dataset: inout Dataset, of work: PartitionWork, documents: [SourceDocument],
         places: RestaurantNames?) {
        let partition = "\(work.harvester.source.name)/\(work.key)"
        var longNames = LongNames()
        var unknown: Set<String> = []
        // Cut before anything names them: a megabyte-long name would be in every line after.
        longNames.shorten(&dataset, partition: partition)
        if let places {
            dataset.serviceDays = dataset.serviceDays.map { places.normalize($0, unknown: &unknown) }
            dataset.hours = places.normalize(dataset.hours, unknown: &unknown)
            dataset.places = places.normalize(dataset.places, unknown: &unknown)
        }
        if let campus = work.harvester.source.campus { dataset.assign(campus: campus) }
        var warnings: [String] = []
        if let text = ReplacementCharacters.firstText(in: dataset) {
            let document = documents.first.map { " (read from \($0.url))" } ?? ""
            warnings.append("\(partition)\(document): text holds U+FFFD, bytes that were not in the "
                            + "encoding the document declared, first in \"\(text)\"")
        }
        days = dataset.serviceDays.map { Day(rows: DayToWrite($0), menus: MenuDigest.Day($0)) }
        unknownRestaurants = unknown
        self.longNames = longNames
        self.warnings = warnings
    }
}
