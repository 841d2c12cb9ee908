import Foundation

/// Puts a raw store in front of another source: every document fetched is recorded, and the
/// latest stored copy of a URL supplies the validators for a conditional GET.
public struct StoringSource: DocumentSource {
    public let upstream: any DocumentSource
    public let store: RawStore
    /// `upstream` when it can ask conditionally, found once: a cast per document was a
    /// protocol-conformance lookup per document.
    private let revalidating: (any RevalidatingSource)?
    /// `upstream` when it is a folder, whose files' stamps stand for their bytes, found once too.
    private let folder: DirectorySource?

    public init(upstream: any DocumentSource, store: RawStore) {
        self.upstream = upstream
        self.store = store
        revalidating = upstream as? any RevalidatingSource
        folder = upstream as? DirectorySource
    }

    /// A 304 is recorded too (with `notModified`), so the history shows when a page was last
    /// confirmed unchanged and not only when it last changed.
    public func fetch(_ url: String) async throws -> FetchedDocument {
        let document: FetchedDocument
        if let revalidating {
            // A stored copy that cannot be read (damaged and dropped) supplies no validators: the
            // page is fetched whole and stored again, instead of failing on every later run.
            document = try await revalidating.fetch(url, revalidating: try? store.latestDocument(for: url))
        } else {
            document = try await upstream.fetch(url)
        }
        try store.store(document)
        return document
    }

    /// The sha256 and status of the newest stored record of `url` when the upstream can tell
    /// from the file's metadata alone that it still holds those bytes (a folder's file with the
    /// entity tag recorded then, `FileStamp`); nil when it cannot, or when it may not. Nothing is
    /// read or stored. `readAhead`: the stored tags of many URLs, read at once (`readEntityTags`).
    public func unchangedRecord(of url: String, readAhead: StoredEntityTags? = nil) -> (sha256: String, status: Int)? {
        guard let folder, let tag = try? folder.entityTag(of: url),
              let stored = try? store.latestEntityTag(for: url, readAhead: readAhead), stored.entityTag == tag,
              stored.status == 200
        else { return nil }
        return (stored.sha256, stored.status)
    }

    /// The stored tags of `urls`, read in one query, when the upstream is a folder (whose files
    /// `unchangedRecord` compares by them); nil otherwise, or when the index cannot be read (each
    /// URL is then looked up alone, and fails or not there).
    public func readEntityTags(of urls: some Collection<String>) -> StoredEntityTags? {
        guard folder != nil else { return nil }
        return try? store.latestEntityTags(for: urls)
    }

    /// Streamed into the store as it is read, unless the upstream revalidates: a conditional
    /// GET needs the stored copy whole, and such documents are fetched whole anyway.
    public func stream(_ url: String, into consume: (Data) throws -> Void) async throws -> FetchRecord {
        if revalidating != nil {
            let document = try await fetch(url)
            try handOver(document.body, to: consume)
            return FetchRecord(document)
        }
        return try await store.stream(url, from: upstream, into: consume)
    }
}
