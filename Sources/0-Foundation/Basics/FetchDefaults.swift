/// How patiently and politely Commissary fetches when nothing says otherwise: the defaults of a
/// pipeline's `fetch:` keys and of the HTTP client itself (`commissary parse <url>` included),
/// kept in one place so the two cannot drift apart.
public enum FetchDefaults {
    /// Whole-transfer limit, redirects and retries included per attempt.
    public static let timeoutSeconds = 30.0
    /// Attempts after the first.
    public static let retries = 3
    public static let perHostConcurrency = 2
    /// The least time between two request starts to one host.
    public static let delayMilliseconds = 250
    /// A larger body is refused rather than stored.
    public static let maxResponseBytes = 10_000_000
    public static let connectTimeoutSeconds = 10
    public static let maxRedirects = 5
    /// The first retry waits about this long; each later one twice as long, up to `maxRetryDelaySeconds`.
    public static let backoffBaseMilliseconds = 500
    /// No wait between two attempts is longer; a server that asks for a longer one (a
    /// Retry-After of hours) is not asked again that run.
    public static let maxRetryDelaySeconds = 30
    /// How long a run may wait for documents, from its start: a night that needs longer is cut
    /// off (its documents still waiting fail their partitions) rather than running into the day.
    /// A first night of UCLA's feed asks for some 1,400 documents, about twelve minutes at the
    /// nightly pipeline's 500 ms spacing; two hours leave room for a slow site, not for a
    /// morning of retries.
    public static let maxRunMinutes = 120.0
}
