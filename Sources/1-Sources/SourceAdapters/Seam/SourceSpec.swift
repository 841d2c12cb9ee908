import Basics
import FoodModel
import Fetching
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
    /// Where the site's user name and password are, for a site that asks for them.
    public var credentials: CredentialsSource?
    /// The campus the source's restaurants belong to (`campus:`), so that a pipeline reading
    /// several campuses keeps a "Commons" of each apart; nil for a pipeline of one campus.
    public var campus: String?

    public init(name: String, adapter: any SourceAdapter, location: Location, dates: DateSelection? = nil,
                settings: any SourceSettings = NoSettings(), credentials: CredentialsSource? = nil) {
        self.name = name
        self.adapter = adapter
        self.location = location
        self.dates = dates
        self.settings = settings
        self.credentials = credentials
    }

    /// Everything that shapes what the source produces, on one line, for the input fingerprint.
    public var definition: String {
        "\(name) \(adapter.name) \(location) \(String(reflecting: dates)) \(String(reflecting: settings))"
            + (campus.map { " campus \($0)" } ?? "")
    }
}

/// Where a site's credentials come from: never the pipeline file itself, so that they are in no
/// file Commissary writes (`credentials_env: NAME` or `credentials_file: path`, each holding
/// `user:password`).
public enum CredentialsSource: Hashable, Sendable {
    case environment(String)
    case file(URL)

    /// Reads them now, at the start of a run; a missing or malformed value is one line that says
    /// where it was looked for, never what it holds.
    public func resolve() throws -> Credentials {
        let text: String
        switch self {
        case .environment(let name):
            guard let value = ProcessInfo.processInfo.environment[name] else {
                throw Failure.badInput("the environment variable \(name) is not set; it should hold user:password",
                                       at: "credentials_env")
            }
            text = value
        case .file(let url):
            do {
                text = String(decoding: try RegularFile.contents(of: url.path, what: "credentials file"), as: UTF8.self)
            } catch let failure as Failure {
                // A file named in the pipeline that cannot be used is the pipeline's input to fix.
                throw Failure(.badInput, failure.message, at: failure.place, cause: failure.cause)
            }
        }
        guard let credentials = Credentials(userColonPassword: text) else {
            throw Failure.badInput("the credentials are not of the form user:password", at: "\(self)")
        }
        return credentials
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

    /// The most days one run covers (twenty years): more is refused where the range is given,
    /// before a list of every day is made.
    public static let maxDays = 7_320

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
