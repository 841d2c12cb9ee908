import Basics
import Fetching
import FoodModel
import Foundation
import SourceAdapters

/// Remembers every document a partition read, for the ledger, `_sources` and the manifest, and
/// counts how many had to cross the network.
public actor DocumentLog: DocumentReader {
    private let upstream: any DocumentSource
    /// Whether `upstream` asks the server (rather than replaying the raw store's copies), so
    /// that what it answers counts as asked.
    private let upstreamAsks: Bool
    /// Where pages already known are served from; nil when the run refetches everything.
    private let known: RawStore?
    /// When a known food document is asked again, and when a missing one is; nil: a known one
    /// never is, a missing one always is.
    private let policy: FoodDocumentPolicy?
    /// What fetch times are measured on.
    private let clock: RunClock
    /// Food documents parsed in earlier runs, by their bytes (`food`); nil: every one is parsed.
    private let parsedFoods: (any ParsedFoods)?
    /// Addresses whose stored copy is not to be used: asked again as if the store had none.
    private let distrusted: Set<String>
    /// What the run's revalidation already fetched for this partition (or failed to): each is
    /// served once instead of being requested a second time.
    private var prefetched: [String: Result<FetchedDocument, any Error>]
    public private(set) var documents: [SourceDocument] = []
    /// The URLs read with `fetch`, whose content may change between runs, in reading order.
    public private(set) var revalidate: [String] = []
    /// Time spent waiting for documents, so the fetch stage can be timed apart from parsing.
    public private(set) var fetchSeconds = 0.0
    /// How the documents were had: fresh from the store, confirmed by a 304, fetched, missing.
    public private(set) var counts = DocumentCounts()
    /// Documents answered 404 or 410 tonight, as the ledger is to remember them.
    public private(set) var missing: [MissingDocument] = []
    /// Documents known missing that answered tonight: the ledger forgets them.
    public private(set) var found: [String] = []
    /// Food documents read with `food`: parsed, and taken as an earlier run parsed the same bytes.
    public private(set) var foodDocumentsParsed = 0
    public private(set) var foodDocumentsFromCache = 0
    /// What the raw store held of the URLs asked about together (`recall`), each until it is
    /// read: nil where the store held nothing.
    private var recalled: [String: FetchRecord?] = [:]

    /// Documents served from the raw store without a request.
    public var reusedCount: Int { counts.fresh }
    /// Conditional requests the server answered with 304.
    public var notModifiedCount: Int { counts.revalidated }

    public init(upstream: any DocumentSource, known: RawStore?, clock: RunClock,
                prefetched: [String: Result<FetchedDocument, any Error>] = [:],
                policy: FoodDocumentPolicy? = nil, upstreamAsks: Bool = true, parsedFoods: (any ParsedFoods)? = nil,
                distrusted: Set<String> = []) {
        self.upstream = upstream
        self.parsedFoods = parsedFoods
        self.distrusted = distrusted
        self.known = known
        self.clock = clock
        self.prefetched = prefetched
        self.policy = policy
        self.upstreamAsks = upstreamAsks
    }

    public func fetch(_ url: String) async throws -> FetchedDocument {
        let document: FetchedDocument
        do {
            document = try await retrieve(url)
        } catch let failure as Failure where failure.code == .notFound {
            counts.missing += 1
            throw failure
        }
        revalidate.append(url)
        return log(document)
    }

    /// A document several partitions of the run read (a week of menus for each of its days):
    /// requested once, logged by each partition that reads it, and fetched again each run like
    /// `fetch`. `readers` is how many partitions of this run will ask for it. A partition that
    /// replays its stored copies (a kept day of `history:`) shares only with partitions that
    /// replay the same bytes: a kept day of this week would otherwise hand its old week to
    /// tonight's days, or take tonight's for its own.
    public func fetchShared(_ url: String, readers: Int, run: RunContext) async throws -> FetchedDocument {
        let document: FetchedDocument
        if prefetched[url] != nil {
            document = try await retrieve(url)
        } else {
            let started = clock.instant
            defer { fetchSeconds += clock.seconds(since: started) }
            let upstream = upstream
            let shared = upstream.pinnedVersion(of: url).map { "\(url) as stored with sha256 \($0)" } ?? url
            document = try await run.shared(shared, readers: readers) { try await upstream.fetch(url) }
            count(document, asked: upstreamAsks)
        }
        revalidate.append(url)
        return log(document)
    }

    /// A document too large to hold (a dump of a million recipes), handed to `consume` in
    /// pieces as it is read; otherwise like `fetch`. Time spent in `consume` is not counted as
    /// fetching. Not isolated to the log, so that the pieces pass straight from the source to
    /// `consume` in the caller's task.
    public nonisolated func stream(_ url: String, into consume: (Data) throws -> Void) async throws -> SourceDocument {
        let clock = clock
        let started = clock.instant
        var consuming = 0.0
        let timed: (Data) throws -> Void = { piece in
            let handed = clock.instant
            defer { consuming += clock.seconds(since: handed) }
            try consume(piece)
        }
        let record: FetchRecord
        if let ready = await takePrefetched(url) {
            let document = try ready.get()
            try handOver(document.body, to: timed)
            record = FetchRecord(document)
        } else {
            record = try await upstream.stream(url, into: timed)
        }
        return await log(streamed: record, fetchSeconds: clock.seconds(since: started) - consuming)
    }

    private func takePrefetched(_ url: String) -> Result<FetchedDocument, any Error>? {
        prefetched.removeValue(forKey: url)
    }

    private func log(streamed record: FetchRecord, fetchSeconds seconds: Double) -> SourceDocument {
        fetchSeconds += seconds
        if record.notModified { counts.revalidated += 1 }
        revalidate.append(record.url)
        let document = SourceDocument(url: record.url, fetchedAt: ISOTimestamp.string(from: record.fetchedAt), status: record.status,
                                      sha256: record.sha256, charset: record.charset, byteCount: record.size)
        documents.append(document)
        return document
    }

    /// For pages that are their food (a recipe page is its recipe id): the copy in the raw store
    /// while it is fresh (`FoodDocumentPolicy.freshness`), else a request, conditional when the
    /// store has validators. A document the server did not have is not asked again before its
    /// back-off is over. This is what lets a second run the same night fetch nothing it already has.
    public func fetchUnlessKnown(_ url: String) async throws -> FetchedDocument {
        try await fetchUnlessKnown(url, stored: storedRecord(of: url))
    }

    /// Looks up in one query the newest stored fetch of each of `urls`, the food documents a
    /// partition is about to read with `fetchUnlessKnown` or `food`, so that each read does not
    /// ask the store on its own: a statement and a reader connection per document were a tenth
    /// of a millisecond each, on nights that read hundreds. A lookup that fails leaves each
    /// read to ask for itself.
    public func recall(_ urls: [String]) {
        guard let known, !urls.isEmpty, let latest = try? known.latestRecords(for: urls) else { return }
        for url in urls { recalled.updateValue(latest[url], forKey: url) }
    }

    /// The newest stored fetch of `url`: as recalled, else asked of the store now.
    private func storedRecord(of url: String) -> FetchRecord? {
        if let record = recalled.removeValue(forKey: url) { return distrusted.contains(url) ? nil : record }
        guard !distrusted.contains(url) else { return nil }
        return known.flatMap { try? $0.latestRecord(for: url) }
    }

    /// A food's document, had as `fetchUnlessKnown` has it, and read by `parse` unless an earlier
    /// run parsed the same bytes with the same code and `parser` (which names everything `parse`
    /// is given besides the bytes). A fresh stored copy whose parse is kept is not even read
    /// from the raw store: its record's sha256 says which parse it is.
    public func food(_ url: String, parser: String,
                     parse: @Sendable (FetchedDocument) throws -> FoodReading) async throws -> FoodReading {
        let stored = storedRecord(of: url)
        if let parsedFoods, let stored, stored.status == 200, isFresh(stored),
           let reading = parsedFoods.reading(FoodReading.parseKey(parser: parser, url: url, sha256: stored.sha256)) {
            counts.fresh += 1
            foodDocumentsFromCache += 1
            documents.append(SourceDocument(stored))
            return reading
        }
        let document = try await fetchUnlessKnown(url, stored: stored)
        let key = parsedFoods.map { _ in FoodReading.parseKey(parser: parser, url: url, sha256: document.sha256) }
        // A document asked again may come back with the bytes parsed before (a 304, or a 200 the same).
        if let key, let reading = parsedFoods?.reading(key) {
            foodDocumentsFromCache += 1
            return reading
        }
        let reading = try parse(document)
        foodDocumentsParsed += 1
        if let key { parsedFoods?.keep(reading, under: key) }
        return reading
    }

    /// Whether a stored copy may be used without asking; with no policy, every stored copy may.
    private func isFresh(_ record: FetchRecord) -> Bool {
        policy.map { $0.freshness.isFresh(record, now: $0.now) } ?? true
    }

    private func fetchUnlessKnown(_ url: String, stored record: FetchRecord?) async throws -> FetchedDocument {
        if let known, let record, record.status == 200, let stored = try? known.document(of: record) {
            guard let policy, !policy.freshness.isFresh(FetchRecord(stored), now: policy.now) else {
                counts.fresh += 1
                return log(stored)
            }
            return log(try await ask(url, policy: policy, from: policy.live))
        }
        if let policy, let previous = policy.leftAlone(url) {
            counts.knownMissing += 1
            throw policy.knownMissing(previous)
        }
        // Straight to the live source: a replay of the partition's last version has no copy of it.
        return log(try await ask(url, policy: policy, from: policy?.live))
    }

    /// Asks for `url` (from `source`, else as `fetch` does) and notes a 404 or 410 for the ledger.
    private func ask(_ url: String, policy: FoodDocumentPolicy?, from source: (any DocumentSource)?) async throws
        -> FetchedDocument {
        do {
            let document: FetchedDocument
            if let source {
                document = try await retrieve(url, from: source)
            } else {
                document = try await retrieve(url)
            }
            if policy?.missing[url] != nil { found.append(url) }
            return document
        } catch let failure as Failure where failure.code == .notFound {
            counts.missing += 1
            if let policy, policy.remembersMissing { missing.append(policy.missingAgain(url, status: failure.status ?? 404)) }
            throw failure
        }
    }

    private func retrieve(_ url: String) async throws -> FetchedDocument {
        if let ready = prefetched.removeValue(forKey: url) {
            let started = clock.instant
            defer { fetchSeconds += clock.seconds(since: started) }
            let document = try ready.get()
            count(document, asked: true)
            return document
        }
        return try await retrieve(url, from: upstream, asks: upstreamAsks)
    }

    private func retrieve(_ url: String, from source: any DocumentSource, asks: Bool = true) async throws
        -> FetchedDocument {
        let started = clock.instant
        defer { fetchSeconds += clock.seconds(since: started) }
        let document = try await source.fetch(url)
        count(document, asked: asks)
        return document
    }

    private func count(_ document: FetchedDocument, asked: Bool) {
        if document.notModified {
            counts.revalidated += 1
        } else if asked {
            counts.refetched += 1
        }
    }

    private func log(_ document: FetchedDocument) -> FetchedDocument {
        documents.append(SourceDocument(document))
        return document
    }
}

extension SourceDocument {
    /// The provenance row of a stored fetch, as of its document read back.
    public init(_ record: FetchRecord) {
        self.init(url: record.url, fetchedAt: ISOTimestamp.string(from: record.fetchedAt), status: record.status,
                  sha256: record.sha256, charset: record.charset, byteCount: record.size)
    }

    /// The provenance row of a fetched document.
    public init(_ document: FetchedDocument) {
        self.init(url: document.url, fetchedAt: ISOTimestamp.string(from: document.fetchedAt), status: document.status,
                  sha256: document.sha256, charset: document.charset, byteCount: document.body.count)
    }
}
