import Basics

/// How politely and how patiently `HTTPSource` talks to servers.
///
/// The defaults suit a nightly run against a university site: a couple of connections per host,
/// a pause between requests, and a few retries spread over tens of seconds. Tests shrink every
/// duration so that faults are exercised in milliseconds.
public struct HTTPPolicy: Sendable, Hashable {
    /// Sent on every request so that site operators can see who is fetching and how to reach us.
    public var userAgent: String
    public var connectTimeout: Duration
    /// Limit for one attempt, from connecting to the last body byte; a stalled server hits it.
    public var totalTimeout: Duration
    /// Redirects are followed up to this many hops; a loop ends as `.tooManyRedirects`.
    public var maxRedirects: Int
    /// Decoded body bytes accepted per response; the transfer is aborted past it (`.tooLarge`),
    /// which also defends against a small compressed body that inflates enormously.
    public var maxBodyBytes: Int
    /// Attempts per URL, the first included; retries happen on transport errors, 5xx and 429.
    public var maxAttempts: Int
    /// The first retry waits up to this long; each further retry doubles the ceiling.
    public var backoffBase: Duration
    /// No wait between attempts exceeds this: a server whose Retry-After asks for more is not
    /// asked again (`HTTPSource.verdict`), and the back-off stops growing here.
    public var maxRetryDelay: Duration
    /// Simultaneous transfers to one host (host and port).
    public var maxConcurrentPerHost: Int
    /// Minimum spacing between the starts of two requests to one host.
    public var minDelayPerHost: Duration
    /// A user name and password sent with HTTP Basic authentication to the host of each request
    /// (never to a host a redirect leads to); nil sends none.
    public var credentials: Credentials?
    /// When the run stops waiting for documents; nil waits as long as the attempts take.
    public var deadline: FetchDeadline?

    public init(
        userAgent: String = HTTPPolicy.userAgent(version: CommissaryVersion.current),
        connectTimeout: Duration = .seconds(FetchDefaults.connectTimeoutSeconds),
        totalTimeout: Duration = .milliseconds(Int(FetchDefaults.timeoutSeconds * 1000)),
        maxRedirects: Int = FetchDefaults.maxRedirects,
        maxBodyBytes: Int = FetchDefaults.maxResponseBytes,
        maxAttempts: Int = FetchDefaults.retries + 1,
        backoffBase: Duration = .milliseconds(FetchDefaults.backoffBaseMilliseconds),
        maxRetryDelay: Duration = .seconds(FetchDefaults.maxRetryDelaySeconds),
        maxConcurrentPerHost: Int = FetchDefaults.perHostConcurrency,
        minDelayPerHost: Duration = .milliseconds(FetchDefaults.delayMilliseconds),
        deadline: FetchDeadline? = nil
    ) {
        self.userAgent = userAgent
        self.connectTimeout = connectTimeout
        self.totalTimeout = totalTimeout
        self.maxRedirects = maxRedirects
        self.maxBodyBytes = maxBodyBytes
        self.maxAttempts = max(1, maxAttempts)
        self.backoffBase = backoffBase
        self.maxRetryDelay = maxRetryDelay
        self.maxConcurrentPerHost = max(1, maxConcurrentPerHost)
        self.minDelayPerHost = minDelayPerHost
        self.deadline = deadline
    }

    /// The User-Agent convention of polite crawlers: product/version plus a contact URL.
    public static func userAgent(version: String) -> String {
        "Commissary/\(version) (+https://github.com/commissary)"
    }

    /// How long an attempt starting at `now` may take: the policy's limit, or what is left before
    /// the deadline when that is less (at least a millisecond: curl reads zero as no limit).
    func attemptTimeout(at now: RunClock.Instant) -> Duration {
        guard let deadline else { return totalTimeout }
        return min(totalTimeout, max(deadline.instant - now, .milliseconds(1)))
    }

    /// The wait before attempt `attempt + 1`: the server's Retry-After when it gave one,
    /// otherwise "full jitter" (uniform between zero and an exponentially growing ceiling), which
    /// keeps many clients that failed together from retrying together. Both are capped.
    public func delay(afterAttempt attempt: Int, retryAfter: Duration?) -> Duration {
        if let retryAfter {
            return min(max(retryAfter, .zero), maxRetryDelay)
        }
        let exponent = min(max(attempt - 1, 0), 30)
        let ceiling = min(backoffBase * (1 << exponent), maxRetryDelay)
        let ceilingNanoseconds = ceiling.nanoseconds
        guard ceilingNanoseconds > 0 else { return .zero }
        return .nanoseconds(Int64.random(in: 0...ceilingNanoseconds))
    }
}

/// The moment a run stops waiting for documents, and the setting that put it there, which the
/// failure of a document it cuts off names. The moment is on the `RunClock` of the source that
/// is given the policy.
public struct FetchDeadline: Sendable, Hashable {
    public var instant: RunClock.Instant
    /// How the deadline was set, in the words of the pipeline file: `fetch.max_run_minutes: 120
    /// from the run's start`.
    public var setting: String

    public init(_ instant: RunClock.Instant, setting: String) {
        self.instant = instant
        self.setting = setting
    }

    /// The failure of `url`, cut off by the deadline after `attempts` attempts (`last` the last
    /// one's failure).
    func failure(of url: String, after last: Failure?, attempts: Int) -> Failure {
        let when = last.map { "while it waited for a retry, after \(attempts) attempt(s), the last: \($0.message)" }
            ?? "before it was asked for"
        return Failure(.deadline, "the run's deadline (\(setting)) passed \(when)", at: url, status: last?.status)
    }
}

extension Duration {
    /// Whole nanoseconds, saturating; curl and the jitter both want plain integers.
    var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        if overflow { return seconds < 0 ? .min : .max }
        return scaled.addingReportingOverflow(attoseconds / 1_000_000_000).partialValue
    }

    /// Whole seconds, rounded up, for messages.
    var wholeSeconds: Int64 {
        let (seconds, attoseconds) = components
        return attoseconds > 0 && seconds < .max ? seconds + 1 : seconds
    }

    /// Whole milliseconds, at least 1 for any positive duration (curl reads 0 as "no limit").
    var curlMilliseconds: Int {
        let milliseconds = Int(nanoseconds / 1_000_000)
        return nanoseconds > 0 ? max(1, milliseconds) : 0
    }
}
