import Basics
import Fetching
import FoodModel
import Foundation
import PostgresTarget
import Nutrition
import RecipeNutrition
import Snapshot
import SourceAdapters

/// A pipeline definition, read from a YAML file under `Pipelines/`: what to fetch, from where,
/// for which days, and what must hold before a snapshot is published.
public struct PipelineSpec: Sendable {
    public var name: String
    public var description: String?
    /// The file the spec was read from; relative locations inside it resolve against its folder.
    public var file: URL
    public var licence: String
    /// Where the licence is published (`licence_url`), for the snapshot's metadata.
    public var licenceURL: String?
    public var sources: [SourceSpec]
    public var checks: CheckPolicy
    public var fetch: FetchSettings
    /// The daily values the compute stage computes %DV under; nil computes none.
    public var dailyValues: DailyValueStandard?
    /// The meal plans and terms the compute stage builds swipe-balance tables for; nil builds none.
    public var swipes: SwipeSettings?
    /// Which older snapshots to remove after a successful publish; nil keeps every one.
    public var retention: RetentionPolicy?
    /// The canonical names of the campus's restaurants; nil keeps every name as printed.
    public var places: RestaurantNames?
    /// Regular meal times and closed dates of restaurants whose sources publish none
    /// (`hours:`); nil adds none.
    public var hours: HoursFile?
    /// Which service days a snapshot holds beyond the run's own: nil holds only the run's.
    public var history: HistoryPolicy?
    /// Whether each published snapshot gets its report page beside it (`report_page`, default true).
    public var reportPage = true
    /// Where each published snapshot also goes in PostgreSQL (`publish: postgres:`); nil for
    /// SQLite files only.
    public var postgres: PostgresTarget?
    /// Whether each published snapshot gets its open feeds beside it (`publish: feeds: true`,
    /// `<file>.feeds/`: OpenMensa XML, iCalendar and JSON per restaurant; docs/feeds.md).
    public var feeds = false
    /// The most rows a night's change set holds (`publish: changes: max_rows`); past it the
    /// change file, and PostgreSQL's feed, say resync instead (docs/changes.md).
    public var changeRowLimit = PipelineSpec.defaultChangeRowLimit
    /// A few weeks of new menus are some ten thousand rows; a hundred thousand is a year of
    /// menus or a catalogue backfilled, which a client does better to download as a snapshot.
    public static let defaultChangeRowLimit = 100_000
    /// What estimates recipes' nutrients from their ingredients (`nutrition_reference`, with the
    /// reference's synonyms and overrides), its reference read when a run first estimates; nil
    /// estimates none.
    public var estimator: DeferredEstimator?
    /// Why a pipeline that names a nutrition reference estimates nothing this run (the reference
    /// file is missing and the pipeline does not require it); a warning of the run's checks.
    public var estimatesSkipped: String?

    public init(name: String, description: String?, file: URL, licence: String,
                sources: [SourceSpec], checks: CheckPolicy, fetch: FetchSettings,
                dailyValues: DailyValueStandard? = nil, swipes: SwipeSettings? = nil,
                retention: RetentionPolicy? = nil, places: RestaurantNames? = nil, history: HistoryPolicy? = nil,
                licenceURL: String? = nil) {
        self.licenceURL = licenceURL
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
        self.places = places
        self.history = history
    }
}

extension PipelineSpec {
    /// The codes of the sources this pipeline reads, each code once (the first source's meaning
    /// wins): what a snapshot's `dietary_code` table holds and what the unknown-code check asks.
    public var legend: [DietaryCode] {
        var seen: Set<String> = []
        return sources.flatMap(\.adapter.legend).filter { seen.insert($0.code).inserted }
    }
}

/// Which service days a snapshot holds besides the ones the run fetches: days done in earlier
/// runs, each as its latest good fetch, replayed from the raw store without a request.
public enum HistoryPolicy: Hashable, Sendable {
    /// Every day ever fetched.
    case all
    /// Days from this one on.
    case since(ServiceDate)
    /// The last N days up to today.
    case lastDays(Int)

    public func keeps(_ date: ServiceDate, today: ServiceDate) -> Bool {
        switch self {
        case .all: true
        case .since(let first): date >= first
        case .lastDays(let days): date.daysSinceEpoch > today.daysSinceEpoch - days
        }
    }
}

/// The blocking checks a run must pass before it may publish.
public struct CheckPolicy: Hashable, Sendable {
    /// Fewest menu items a snapshot may have; nil when the pipeline sets none (the check then
    /// reports the count and says so).
    public var minMenuItems: Int?
    /// Fewest recipes a snapshot may have; nil when the pipeline sets none.
    public var minRecipes: Int?
    /// The largest fall in menu items, recipes or nutrient values against the previous snapshot, as a fraction
    /// (0.5: fewer than half of yesterday's items blocks publishing).
    public var maxDropFromPrevious: Double
    /// Restaurants that must appear on every service day.
    public var requiredRestaurants: [String]
    /// How many partitions (a service day, `hours`, a catalogue) may fail while the run still
    /// publishes the others; 0, the default, blocks on any failure.
    public var maxFailedPartitions: Int
    /// The largest fall a partition's new fetch may show against its last good fetch (menu
    /// items, items per meal, recipes) or in a share (foods with a label, nutrients per label,
    /// items with codes), as a fraction; a larger one refuses the fetch and the last good
    /// version is published instead, marked stale.
    public var maxDayDrop: Double
    /// Fewest menu items a served meal may have: a meal on the page with fewer is a page that
    /// was not read right.
    public var minItemsPerMeal: Int
    /// The share of a source's menu items on a day that must carry a label: below `warn` the run
    /// warns, below `block` it does not publish. Nil: the shares are reported, nothing more.
    public var minLabelledShare: LabelledShareLimits?
    /// What a partition whose structure degraded (placeholder names, a meal gone, labels of
    /// zeros) gets: refused, its last good version published stale (the default), or a warning.
    public var degradedDay = DegradedDayPolicy()

    public init(minMenuItems: Int? = nil, minRecipes: Int? = nil, maxDropFromPrevious: Double = 0.5,
                requiredRestaurants: [String] = [], maxFailedPartitions: Int = 0, maxDayDrop: Double = 0.5,
                minItemsPerMeal: Int = 1) {
        self.maxDayDrop = maxDayDrop
        self.minItemsPerMeal = minItemsPerMeal
        self.minMenuItems = minMenuItems
        self.minRecipes = minRecipes
        self.maxDropFromPrevious = maxDropFromPrevious
        self.requiredRestaurants = requiredRestaurants
        self.maxFailedPartitions = maxFailedPartitions
    }
}

/// `checks.degraded_day`: per sign of a source whose structure changed under the reader, whether
/// the day is refused (its last good version published, marked stale) or published with a
/// warning.
public struct DegradedDayPolicy: Hashable, Sendable {
    public enum Response: String, Hashable, Sendable, CaseIterable {
        case refuse, warn
    }

    /// Items in sections the source did not name, or named only by their id.
    public var placeholderNames = Response.refuse
    /// A meal a restaurant served in the partition's last good fetch and no longer does.
    public var missingMeals = Response.refuse
    /// Most labels the partition read print only zeros.
    public var zeroedLabels = Response.refuse

    public init(placeholderNames: Response = .refuse, missingMeals: Response = .refuse,
                zeroedLabels: Response = .refuse) {
        self.placeholderNames = placeholderNames
        self.missingMeals = missingMeals
        self.zeroedLabels = zeroedLabels
    }

    /// The same response to every sign.
    public init(all response: Response) {
        self.init(placeholderNames: response, missingMeals: response, zeroedLabels: response)
    }
}

/// `checks.min_labelled_share`: a share (0...1) below which a source's day warns, and one below
/// which it blocks publishing.
public struct LabelledShareLimits: Hashable, Sendable {
    public var warn: Double?
    public var block: Double?

    public init(warn: Double? = nil, block: Double? = nil) {
        self.warn = warn
        self.block = block
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
    /// The run's deadline for documents, in minutes from its start (fractions allowed): a
    /// document still waiting for an answer or a retry then fails its partition.
    public var maxRunMinutes: Double
    /// `revalidate: {food_documents: 7d}`: how long a stored food document (a recipe,
    /// ingredient or label page) is used without asking, when its server gave no lifetime.
    /// Menus are asked every run (`menus: always`): that is how a run learns what changed.
    public var foodDocuments = RevalidationPeriod.days(7)
    /// `missing_documents: {retry_after: 1d, max: 14d}`: when a food document the server did
    /// not have is asked again.
    public var missingDocuments = MissingBackOff()

    public init(userAgent: String? = nil, timeoutSeconds: Double = FetchDefaults.timeoutSeconds,
                retries: Int = FetchDefaults.retries, perHostConcurrency: Int = FetchDefaults.perHostConcurrency,
                delayMilliseconds: Int = FetchDefaults.delayMilliseconds,
                maxResponseBytes: Int = FetchDefaults.maxResponseBytes, requestsPerSecond: Double? = nil,
                maxRunMinutes: Double = FetchDefaults.maxRunMinutes) {
        self.userAgent = userAgent
        self.timeoutSeconds = timeoutSeconds
        self.retries = retries
        self.perHostConcurrency = perHostConcurrency
        self.delayMilliseconds = delayMilliseconds
        self.maxResponseBytes = maxResponseBytes
        self.requestsPerSecond = requestsPerSecond
        self.maxRunMinutes = maxRunMinutes
    }
}
