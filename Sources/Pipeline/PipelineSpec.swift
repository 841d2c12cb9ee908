import FoodModel
import Foundation
import Nutrition
import Snapshot

/// A pipeline definition, read from a YAML file under `Pipelines/`: what to fetch, from where,
/// for which days, and what must hold before a snapshot is published.
public struct PipelineSpec: Hashable, Sendable {
    public var name: String
    public var description: String?
    /// The file the spec was read from; relative locations inside it resolve against its folder.
    public var file: URL
    public var licence: String
    public var sources: [SourceSpec]
    public var checks: CheckPolicy
    public var fetch: FetchSettings
    /// The daily values the compute stage computes %DV under; nil computes none.
    public var dailyValues: DailyValueStandard?
    /// The meal plans and terms the compute stage builds swipe-balance tables for; nil builds none.
    public var swipes: SwipeSettings?
    /// Which older snapshots to remove after a successful publish; nil keeps every one.
    public var retention: RetentionPolicy?

    public init(name: String, description: String?, file: URL, licence: String,
                sources: [SourceSpec], checks: CheckPolicy, fetch: FetchSettings,
                dailyValues: DailyValueStandard? = nil, swipes: SwipeSettings? = nil,
                retention: RetentionPolicy? = nil) {
        self.name = name
        self.description = description
        self.file = file
        self.licence = licence
        self.sources = sources
        self.checks = checks
        self.fetch = fetch
        self.dailyValues = dailyValues
        self.swipes = swipes
        self.retention = retention
    }
}

/// One source of a pipeline: an adapter and where it reads from.
public struct SourceSpec: Hashable, Sendable {
    public enum Adapter: String, Hashable, Sendable, CaseIterable {
        /// The UCLA menu site: day overviews, recipe pages, hours.
        case uclaMenuSite = "ucla-menu-site"
        /// A TheMealDB dump file: a JSON array of meals or `{"meals": [...]}`.
        case mealdbDump = "mealdb-dump"
        /// The historical UCLA dataset: a folder of `YYYY-MM-DD.json` days.
        case uclaDataset = "ucla-dataset"
        /// TheMealDB's live v1 API, walked by first letter (`search.php?f=`), plus `categories.php`.
        case mealdbAPI = "mealdb-api"
        /// A FoodPro site (UCLA's menu grid until 2016, Berkeley's entrées and label pages).
        case foodpro
    }

    public var name: String
    public var adapter: Adapter
    public var location: Location
    /// The service days to fetch (menu sources).
    public var dates: DateSelection?
    /// Fetch the recipe page of every item on the menus.
    public var recipePages: Bool
    /// Fetch the hours page.
    public var hours: Bool
    /// A categories file or URL (TheMealDB `categories.php` format).
    public var categories: Location?
    /// The first letters and digits a `mealdb-api` source walks, one partition each, in this
    /// order; nil walks all of a–z and 0–9.
    public var letters: [Character]?
    /// A `foodpro` source's layout and page templates.
    public var foodPro: FoodProPages?

    public init(name: String, adapter: Adapter, location: Location, dates: DateSelection? = nil,
                recipePages: Bool = true, hours: Bool = true, categories: Location? = nil,
                letters: [Character]? = nil, foodPro: FoodProPages? = nil) {
        self.name = name
        self.adapter = adapter
        self.location = location
        self.dates = dates
        self.recipePages = recipePages
        self.hours = hours
        self.categories = categories
        self.letters = letters
        self.foodPro = foodPro
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

/// The blocking checks a run must pass before it may publish.
public struct CheckPolicy: Hashable, Sendable {
    /// Fewest menu items a snapshot may have (0 for a recipes-only pipeline).
    public var minMenuItems: Int
    /// Fewest recipes a snapshot may have.
    public var minRecipes: Int
    /// The largest fall in menu items or recipes against the previous snapshot, as a fraction
    /// (0.5: fewer than half of yesterday's items blocks publishing).
    public var maxDropFromPrevious: Double
    /// Restaurants that must appear on every service day.
    public var requiredRestaurants: [String]
    /// How many partitions (a service day, `hours`, a catalogue) may fail while the run still
    /// publishes the others; 0, the default, blocks on any failure.
    public var maxFailedPartitions: Int

    public init(minMenuItems: Int = 0, minRecipes: Int = 0, maxDropFromPrevious: Double = 0.5,
                requiredRestaurants: [String] = [], maxFailedPartitions: Int = 0) {
        self.minMenuItems = minMenuItems
        self.minRecipes = minRecipes
        self.maxDropFromPrevious = maxDropFromPrevious
        self.requiredRestaurants = requiredRestaurants
        self.maxFailedPartitions = maxFailedPartitions
    }
}

/// How politely and how patiently to fetch from the web.
public struct FetchSettings: Hashable, Sendable {
    public var userAgent: String?
    public var timeoutSeconds: Double
    public var retries: Int
    public var perHostConcurrency: Int
    public var delayMilliseconds: Int
    public var maxResponseBytes: Int
    /// A ceiling on request starts per second to one host, enforced as a minimum spacing of
    /// 1/rate (the larger of it and `delayMilliseconds` wins); nil leaves the adapter's default
    /// (2 for TheMealDB, none beyond `delayMilliseconds` for the others).
    public var requestsPerSecond: Double?

    public init(userAgent: String? = nil, timeoutSeconds: Double = 30, retries: Int = 3,
                perHostConcurrency: Int = 2, delayMilliseconds: Int = 250,
                maxResponseBytes: Int = 10_000_000, requestsPerSecond: Double? = nil) {
        self.userAgent = userAgent
        self.timeoutSeconds = timeoutSeconds
        self.retries = retries
        self.perHostConcurrency = perHostConcurrency
        self.delayMilliseconds = delayMilliseconds
        self.maxResponseBytes = maxResponseBytes
        self.requestsPerSecond = requestsPerSecond
    }
}
