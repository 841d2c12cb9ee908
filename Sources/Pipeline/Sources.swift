import FoodModel
import Fetching
import Foundation
import Snapshot

extension PipelineRunner {
    /// One harvester per source of the spec, each with the live document source it fetches
    /// through. Everything fetched is kept in the raw store, local folders included, so that
    /// every run can be replayed and every row traced to its bytes.
    func harvesters() throws -> [(any Harvester, any DocumentSource)] {
        let store = RawStore(root: options.workspace.raw)
        let localFiles = DirectorySource(root: URL(fileURLWithPath: "/"))
        return try spec.sources.map { source in
            switch (source.adapter, source.location) {
            case (.uclaMenuSite, .directory(let folder)):
                return (MenuSiteHarvester(source: source, base: "file://" + folder.path, days: days(of: source)),
                        StoringSource(upstream: localFiles, store: store))
            case (.uclaMenuSite, .web(let base)):
                return (MenuSiteHarvester(source: source, base: base, days: days(of: source)),
                        StoringSource(upstream: HTTPSource(policy: httpPolicy(for: source), logger: logger), store: store))
            case (.uclaDataset, .directory(let folder)):
                let requested = (options.dates ?? source.dates)?.days(today: options.today)
                return (DatasetHarvester(source: source, folder: folder, requested: requested),
                        StoringSource(upstream: localFiles, store: store))
            case (.mealdbAPI, .web(let base)):
                return (MealDBAPIHarvester(source: source, base: base),
                        StoringSource(upstream: HTTPSource(policy: httpPolicy(for: source), logger: logger), store: store))
            case (.mealdbDump, .file(let dump)):
                return (MealDBDumpHarvester(source: source, dump: dump),
                        StoringSource(upstream: localFiles, store: store))
            case (.foodpro, .directory(let folder)):
                return (FoodProHarvester(source: source, pages: try foodProPages(of: source), base: "file://" + folder.path,
                                         days: days(of: source)),
                        StoringSource(upstream: localFiles, store: store))
            case (.foodpro, .web(let base)):
                return (FoodProHarvester(source: source, pages: try foodProPages(of: source), base: base, days: days(of: source)),
                        StoringSource(upstream: HTTPSource(policy: httpPolicy(for: source), logger: logger), store: store))
            default:
                throw RunError("\(spec.file.path): source \(source.name): adapter \(source.adapter.rawValue) cannot read \(source.location)")
            }
        }
    }

    private func foodProPages(of source: SourceSpec) throws -> FoodProPages {
        guard let pages = source.foodPro else {
            throw RunError("\(spec.file.path): source \(source.name): a foodpro source needs a `layout`")
        }
        return pages
    }

    /// The command line's dates win over the pipeline file's.
    private func days(of source: SourceSpec) -> [ServiceDate] {
        (options.dates ?? source.dates)?.days(today: options.today) ?? []
    }

    func httpPolicy() -> HTTPPolicy {
        let settings = spec.fetch
        return HTTPPolicy(
            userAgent: settings.userAgent ?? HTTPPolicy.userAgent(version: CommissaryVersion.current),
            totalTimeout: .milliseconds(Int(settings.timeoutSeconds * 1000)),
            maxBodyBytes: settings.maxResponseBytes,
            maxAttempts: settings.retries + 1,
            maxConcurrentPerHost: settings.perHostConcurrency,
            minDelayPerHost: .milliseconds(settings.delayMilliseconds))
    }

    /// The policy of one source's HTTP client: the rate ceiling becomes a minimum spacing
    /// between request starts, enforced by `HTTPSource`'s per-host gate on every attempt,
    /// retries included.
    func httpPolicy(for source: SourceSpec) -> HTTPPolicy {
        var policy = httpPolicy()
        let defaultRate = source.adapter == .mealdbAPI ? MealDBAPIHarvester.defaultRequestsPerSecond : nil
        if let rate = spec.fetch.requestsPerSecond ?? defaultRate {
            policy.minDelayPerHost = max(policy.minDelayPerHost, .nanoseconds(Int64(1_000_000_000 / rate)))
        }
        return policy
    }

    /// Serves a partition that is already done from the exact bytes it was built from.
    func replay(_ previous: PartitionState?, fallback: any DocumentSource) throws -> any DocumentSource {
        PartitionReplay(store: RawStore(root: options.workspace.raw),
                        documents: Dictionary((previous?.documents ?? []).map { ($0.url, $0) },
                                              uniquingKeysWith: { _, newer in newer }),
                        fallback: fallback)
    }
}

/// A done partition's documents, read back from the raw store by URL and sha256; anything the
/// ledger does not list (or the store lost) is fetched live.
struct PartitionReplay: DocumentSource {
    let store: RawStore
    let documents: [String: SourceDocument]
    let fallback: any DocumentSource

    func fetch(_ url: String) async throws -> FetchedDocument {
        guard let expected = documents[url],
              let record = try store.records(for: url).last(where: { $0.sha256 == expected.sha256 }),
              let body = try? store.body(of: record)
        else { return try await fallback.fetch(url) }
        return FetchedDocument(url: url, status: record.status, headers: record.headers, body: body,
                               charset: record.charset, sha256: record.sha256, fetchedAt: record.fetchedAt)
    }
}
