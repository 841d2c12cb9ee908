import Basics
import Fetching
import FoodModel
import Foundation
import Logging
import Snapshot
import SourceAdapters

extension StageContext {
    /// One harvester per source of the spec, each with the live document source it fetches
    /// through. Everything fetched is kept in the raw store, local folders included, so that
    /// every run can be replayed and every row traced to its bytes.
    /// A dry run's sources store nothing (`storing: false`).
    func harvesters(storing: Bool = true) throws -> [(any Harvester, any DocumentSource)] {
        let store = RawStore(root: options.workspace.raw)
        let setup = HarvestSetup(dates: options.dates, today: options.today)
        return try spec.sources.map { source in
            let live: any DocumentSource = switch source.location {
            case .web: HTTPSource(policy: try httpPolicy(for: source), logger: logger(for: source), clock: clock)
            case .directory, .file:
                DirectorySource(root: URL(fileURLWithPath: "/"), confinedTo: source.adapter.localFolders(of: source),
                                clock: clock, maxBodyBytes: spec.fetch.maxResponseBytes)
            }
            return (try source.adapter.harvester(for: source, run: setup),
                    storing ? StoringSource(upstream: live, store: store) : live)
        }
    }

    /// The run's logger, stamped with the source and the fetch stage for what `HTTPSource` logs.
    private func logger(for source: SourceSpec) -> Logger {
        var logger = logger
        logger[metadataKey: "source"] = "\(source.name)"
        logger[metadataKey: "stage"] = "\(StageName.fetch.rawValue)"
        return logger
    }

    func httpPolicy() -> HTTPPolicy {
        let settings = spec.fetch
        return HTTPPolicy(
            userAgent: settings.userAgent ?? HTTPPolicy.userAgent(version: CommissaryVersion.current),
            totalTimeout: .milliseconds(Int(settings.timeoutSeconds * 1000)),
            maxBodyBytes: settings.maxResponseBytes,
            maxAttempts: settings.retries + 1,
            maxConcurrentPerHost: settings.perHostConcurrency,
            minDelayPerHost: .milliseconds(settings.delayMilliseconds),
            deadline: FetchDeadline(begun + .seconds(settings.maxRunMinutes * 60),
                                    setting: "fetch.max_run_minutes: \(Self.plain(settings.maxRunMinutes)) from the run's start"))
    }

    /// A number of minutes as the pipeline file would give it: `120`, `0.05`.
    private static func plain(_ minutes: Double) -> String {
        minutes == minutes.rounded() ? String(Int(minutes)) : String(minutes)
    }

    /// The policy of one source's HTTP client: the rate ceiling becomes a minimum spacing
    /// between request starts, enforced by `HTTPSource`'s per-host gate on every attempt,
    /// retries included.
    func httpPolicy(for source: SourceSpec) throws -> HTTPPolicy {
        var policy = httpPolicy()
        policy.credentials = try source.credentials?.resolve()
        if let rate = spec.fetch.requestsPerSecond ?? source.adapter.defaultRequestsPerSecond {
            policy.minDelayPerHost = max(policy.minDelayPerHost, .nanoseconds(Int64(1_000_000_000 / rate)))
        }
        return policy
    }

    /// Serves a partition from the exact bytes it was built from.
    func replay(_ documents: [SourceDocument], fallback: any DocumentSource) throws -> any DocumentSource {
        PartitionReplay(store: RawStore(root: options.workspace.raw),
                        documents: Dictionary(documents.map { ($0.url, $0) }, uniquingKeysWith: { _, newer in newer }),
                        fallback: fallback)
    }
}

/// The end of a stale replay's sources: a page that no last good version read is not fetched,
/// since the live site is what was refused.
struct NothingKept: DocumentSource {
    func fetch(_ url: String) async throws -> FetchedDocument {
        throw Failure.badInput("no last good version of this page is kept", at: url)
    }
}

/// A done partition's documents, read back from the raw store by URL and sha256; anything the
/// ledger does not list (or the store lost) is fetched live.
struct PartitionReplay: DocumentSource {
    let store: RawStore
    let documents: [String: SourceDocument]
    let fallback: any DocumentSource

    func fetch(_ url: String) async throws -> FetchedDocument {
        guard let record = try storedRecord(of: url), let body = try? store.body(of: record)
        else { return try await fallback.fetch(url) }
        return FetchedDocument(url: url, status: record.status, headers: record.headers, body: body,
                               charset: record.charset, sha256: record.sha256, fetchedAt: record.fetchedAt)
    }

    /// The bytes the ledger lists for `url`, when it lists any: what a replay answers with
    /// (unless the store lost them, and then the site's bytes are read in their place); else
    /// what its fallback answers with.
    func pinnedVersion(of url: String) -> String? {
        documents[url]?.sha256 ?? fallback.pinnedVersion(of: url)
    }

    /// The stored bytes in pieces. Damage shows only at the end, after the pieces before it were
    /// handed over, so a damaged body fails the read instead of falling back to a live fetch.
    func stream(_ url: String, into consume: (Data) throws -> Void) async throws -> FetchRecord {
        guard let record = try storedRecord(of: url) else { return try await fallback.stream(url, into: consume) }
        try store.streamBody(of: record, into: consume)
        return record
    }

    /// The stored fetch of `url` with the bytes the ledger lists for it, if the store has one.
    private func storedRecord(of url: String) throws -> FetchRecord? {
        guard let expected = documents[url] else { return nil }
        return try store.records(for: url).last { $0.sha256 == expected.sha256 }
    }
}
