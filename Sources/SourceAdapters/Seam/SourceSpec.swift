import FoodModel
import Foundation

/// One source of a pipeline: an adapter, where it reads from, the days it covers, and the
/// adapter's own settings.
public struct SourceSpec: Sendable {
    public var name: String
    public var adapter: any SourceAdapter
    public var location: Location
    /// The service days to fetch (menu sources).
    public var dates: DateSelection?
    /// What the adapter read from the source's own keys.
    public var settings: any SourceSettings

    public init(name: String, adapter: any SourceAdapter, location: Location, dates: DateSelection? = nil,
                settings: any SourceSettings = NoSettings()) {
        self.name = name
        self.adapter = adapter
        self.location = location
        self.dates = dates
        self.settings = settings
    }

    /// Everything that shapes what the source produces, on one line, for the input fingerprint.
    public var definition: String {
        "\(name) \(adapter.name) \(location) \(String(reflecting: dates)) \(String(reflecting: settings))"
    }
}

/// Where a source reads from: the web, or a folder or file on disk (SampleData, offline runs).
public enum Location: Hashable, Sendable, CustomStringConvertible {
    case web(String)
    case directory(URL)
    case file(URL)

    public var description: String {
        switch self {
        case .web(let base): base
        case .directory(let url), .file(let url): url.path
        }
    }
}

/// Which service days a menu source covers.
public enum DateSelection: Hashable, Sendable {
    /// A fixed, inclusive range (SampleData, backfills).
    case range(from: ServiceDate, to: ServiceDate)
    /// Today and the next `daysAhead` days (the nightly refresh).
    case upcoming(daysAhead: Int)

    /// The concrete days, given what "today" is.
    public func days(today: ServiceDate) -> [ServiceDate] {
        switch self {
        case .range(let from, let to):
            guard from <= to else { return [] }
            return (0...(to.daysSinceEpoch - from.daysSinceEpoch)).map { from.adding(days: $0) }
        case .upcoming(let daysAhead):
            return (0...max(0, daysAhead)).map { today.adding(days: $0) }
        }
    }
}
