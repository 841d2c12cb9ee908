/// The entity tags of the newest stored fetches of a set of URLs, read at one time
/// (`RawStore.latestEntityTags(for:)`): what revalidating a night's folder pages compares their
/// files' stamps with, without a query for each.
public struct StoredEntityTags: Sendable {
    /// What the newest stored fetch of a URL was: its entity tag, sha256 and status.
    public struct Tag: Sendable, Equatable {
        public var entityTag: String
        public var sha256: String
        public var status: Int
    }

    private let tags: [String: Tag]
    /// The URLs read: one of them without a tag has no stored fetch with one.
    private let asked: Set<String>

    init(tags: [String: Tag], asked: Set<String>) {
        self.tags = tags
        self.asked = asked
    }

    /// Whether `url` was among the URLs read.
    func covers(_ url: String) -> Bool {
        asked.contains(url)
    }

    /// The tag read for `url`; nil when its newest stored fetch has none, or when it was not
    /// read (`covers`).
    subscript(url: String) -> Tag? {
        tags[url]
    }
}
