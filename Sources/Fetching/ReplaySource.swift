/// Serves the latest stored copy of each URL without touching the network, so any run that
/// fetched through a `StoringSource` can be replayed offline.
public struct ReplaySource: DocumentSource {
    public let store: RawStore

    public init(store: RawStore) {
        self.store = store
    }

    public func fetch(_ url: String) async throws -> FetchedDocument {
        guard let document = try store.latestDocument(for: url) else {
            throw FetchError(.notFound, url: url, "not in the raw store at \(store.root.path)")
        }
        return document
    }
}
