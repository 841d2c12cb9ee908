import Basics
import FoodModel
import Fetching
import Foundation
import YAMLConfig

/// One kind of source, declared in one place: its name (the same in pipeline files and in
/// `commissary parse --adapter`), its own pipeline keys and their validation, the locations it
/// can read, how a source of its kind becomes a harvester (partitions, and how a partition's
/// documents become values), its code legend, and the page formats `parse` reads.
///
/// Adding a source platform is a folder under `SourceAdapters/` with a type conforming to this
/// protocol, and one line in `AdapterRegistry.all`.
public protocol SourceAdapter: Sendable {
    /// The kind's name: `adapter:` in a pipeline file, `--adapter` of `commissary parse`.
    var name: String { get }
    /// One line on what the adapter reads, for `--help` and the docs.
    var summary: String { get }
    /// Its folder under `Sources/1-Sources/SourceAdapters`, which holds its code and, as `README.md`, what
    /// its source publishes and where that was learned.
    var folder: String { get }
    /// The keys a source of this kind may set besides `name`, `adapter`, `location` and `dates`;
    /// any other key is refused as a typo.
    var keys: Set<String> { get }
    /// Whether a source of this kind must say which service days it covers.
    var needsDates: Bool { get }
    /// What is wrong with reading `location`, and what to give instead; nil when it can be read.
    func problem(reading location: Location) -> String?
    /// The adapter's own settings, read from a source's entry in a pipeline file (`keys` only).
    func settings(from entry: YAMLMapping, location: Location, folder: URL) throws -> any SourceSettings
    /// The harvester of one source of this kind for one run.
    func harvester(for source: SourceSpec, run: HarvestSetup) throws -> any Harvester
    /// The codes this kind of source prints beside items (web codes, icons, filters), with
    /// what each means; a snapshot holds the legends of the sources it read.
    var legend: [DietaryCode] { get }
    /// The page and response formats `commissary parse --adapter <name>` reads, the first
    /// being the default.
    var pageFormats: [PageFormat] { get }
    /// The most requests a second this kind of site should get unless the pipeline says
    /// otherwise; nil leaves the pipeline's `fetch` settings alone.
    var defaultRequestsPerSecond: Double? { get }
    /// The folders a source on disk may read files from: nothing a symbolic link leads to
    /// outside them is read.
    func localFolders(of source: SourceSpec) -> [URL]
}

extension SourceAdapter {
    public var needsDates: Bool { false }

    /// The location's folder, or the folder of the location's file.
    public func localFolders(of source: SourceSpec) -> [URL] {
        switch source.location {
        case .web: []
        case .directory(let folder): [folder]
        case .file(let file): [file.deletingLastPathComponent()]
        }
    }
    public var legend: [DietaryCode] { [] }
    public var defaultRequestsPerSecond: Double? { nil }
}

/// An adapter's own settings for one source (which pages to read, a site's layout); each
/// adapter defines its type and alone reads it back.
public protocol SourceSettings: Sendable {}

/// Settings of an adapter that has no keys of its own.
public struct NoSettings: SourceSettings {
    public init() {}
}

/// What a harvester is built with for one run, besides its source.
public struct HarvestSetup: Sendable {
    /// The command line's dates, which win over the pipeline file's.
    public var dates: DateSelection?
    public var today: ServiceDate

    public init(dates: DateSelection?, today: ServiceDate) {
        self.dates = dates
        self.today = today
    }

    /// The days a source covers in this run, from the command line or else from its entry;
    /// nil when neither says.
    public func days(of source: SourceSpec) -> [ServiceDate]? {
        (dates ?? source.dates)?.days(today: today)
    }

    /// The root that a source's page paths are appended to: the site, or a folder served by a
    /// directory source (`file:///...`).
    public func base(of source: SourceSpec) -> String {
        switch source.location {
        case .web(let base): base
        case .directory(let folder), .file(let folder): "file://" + folder.path
        }
    }
}

extension SourceAdapter {
    /// Reads a source's settings back as the adapter's own type: they were made by `settings(from:)`
    /// of the same adapter, so only a spec assembled by hand with another adapter's settings fails.
    public func settings<Settings: SourceSettings>(of source: SourceSpec, as type: Settings.Type) throws -> Settings {
        guard let settings = source.settings as? Settings else {
            throw Failure.badInput("the source's settings are not those of the \(name) adapter", at: source.name)
        }
        return settings
    }
}
