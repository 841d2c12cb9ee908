import Basics
import Foundation
import Logging

/// The live web through libcurl, with the politeness and patience of an `HTTPPolicy`.
///
/// Copies share one host gate and one pool of handles (with their open connections), so hand
/// the same source (or its copies) to every task of a run for the per-host limits to hold.
public struct HTTPSource: RevalidatingSource {
    public let policy: HTTPPolicy
    private let logger: Logger
    private let gate: HostGate
    private let handles: EasyHandlePool
    /// What spacing, back-off and the policy's deadline are counted on, and what stamps `fetchedAt`.
    private let clock: RunClock

    public init(policy: HTTPPolicy = HTTPPolicy(), logger: Logger, clock: RunClock = .system) {
        self.policy = policy
        self.logger = logger
        self.clock = clock
        self.gate = HostGate(limit: policy.maxConcurrentPerHost, spacing: policy.minDelayPerHost, clock: clock)
        self.handles = EasyHandlePool(capacity: 8)
    }

    public func fetch(_ url: String) async throws -> FetchedDocument {
        try await fetch(url, revalidating: nil)
    }

    public func fetch(_ url: String, revalidating previous: FetchedDocument?) async throws -> FetchedDocument {
        let host = try Self.hostKey(of: url)
        let request = TransferRequest(
            url: url, headerLines: Self.conditionalHeaders(for: previous), policy: policy)
        var logger = self.logger
        logger[metadataKey: "url"] = "\(url)"
        var attempt = 1
        var lastFailure: Failure?
        while true {
            logger[metadataKey: "attempt"] = "\(attempt)"
            let outcome = try await transfer(request, host: host, attemptsBefore: attempt - 1, lastFailure: lastFailure,
                                             logger: logger)
            switch Self.verdict(on: outcome, url: url, previous: previous, longestWait: policy.maxRetryDelay,
                                 now: clock.now()) {
            case .done(let document):
                logger.debug("fetched", metadata: [
                    "status": "\(outcome.status)", "bytes": "\(document.body.count)",
                    "notModified": "\(document.notModified)",
                ])
                return document
            case .fail(let error):
                logger.debug("fetch failed without retry", metadata: ["error": "\(error.message)"])
                throw error
            case .retry(let error, let retryAfter):
                try await waitToRetry(url, after: error, attempt: attempt, retryAfter: retryAfter, logger: logger)
                lastFailure = error
                attempt += 1
            }
        }
    }

    /// One attempt, once the host's gate admits it; one the deadline leaves no time for is cut
    /// off, naming the last failure before it.
    private func transfer(_ request: TransferRequest, host: String, attemptsBefore: Int, lastFailure: Failure?,
                          logger: Logger) async throws -> TransferOutcome {
        guard !Task.isCancelled else { throw Self.cancelled(request.url) }
        let admitted = await gate.acquire(host, before: policy.deadline?.instant)
        if let deadline = policy.deadline, !admitted || clock.instant >= deadline.instant {
            await gate.release(host)
            throw cutOff(request.url, by: deadline, after: lastFailure, attempts: attemptsBefore, logger: logger)
        }
        var request = request
        // An attempt ends by the deadline at the latest: a stalled server cannot stretch it.
        request.policy.totalTimeout = policy.attemptTimeout(at: clock.instant)
        let outcome = await CurlTransfer.perform(request, handles: handles)
        await gate.release(host)
        return outcome
    }

    /// Waits out the delay before the next attempt; throws instead when the attempts are used
    /// up, when the next one would start past the deadline, or when the run is cancelled meanwhile.
    private func waitToRetry(_ url: String, after error: Failure, attempt: Int, retryAfter: Duration?,
                             logger: Logger) async throws {
        let attemptsLeft = attempt < policy.maxAttempts
        let delay = attemptsLeft ? policy.delay(afterAttempt: attempt, retryAfter: retryAfter) : .zero
        // A retry that would start after the deadline is not waited for.
        if let deadline = policy.deadline, clock.instant + delay >= deadline.instant {
            throw cutOff(url, by: deadline, after: error, attempts: attempt, logger: logger)
        }
        guard attemptsLeft else {
            logger.info("giving up", metadata: ["error": "\(error.message)"])
            throw Failure(error.code, "\(error.message) (after \(attempt) attempts)", at: url, status: error.status)
        }
        logger.info("retrying", metadata: ["error": "\(error.message)", "delay": "\(delay)"])
        do {
            try await clock.sleep(for: delay)
        } catch {
            throw Self.cancelled(url)
        }
    }

    private func cutOff(_ url: String, by deadline: FetchDeadline, after last: Failure?, attempts: Int,
                        logger: Logger) -> Failure {
        let failure = deadline.failure(of: url, after: last, attempts: attempts)
        logger.info("cut off by the deadline", metadata: ["error": "\(failure.message)"])
        return failure
    }

    enum Verdict {
        case done(FetchedDocument)
        case fail(Failure)
        /// Worth another attempt; `retryAfter` is the server's own request, if it made one.
        case retry(Failure, retryAfter: Duration?)
    }

    /// Decides what one attempt means. Only faults that may pass (the network, an overloaded or
    /// rate-limiting server, a cut-off body) are retried; a client error or a policy limit will
    /// not change by asking again. Nor will a server that asks to be left alone for longer than
    /// `longestWait` (a Retry-After of hours, or of years): asking again sooner would go against
    /// its request and most likely get the same answer, and waiting as asked would hold the night.
    /// `now` stamps the document and dates a Retry-After given as a date.
    static func verdict(on outcome: TransferOutcome, url: String, previous: FetchedDocument?,
                        longestWait: Duration, now: Date) -> Verdict {
        if let failure = outcome.failure {
            let detail = outcome.detail
            switch failure {
            case .timeout: return .retry(Failure(.timeout, "timed out: \(detail)", at: url), retryAfter: nil)
            case .truncated:
                return .retry(Failure(.truncated, "the body ended before its declared length: \(detail)", at: url), retryAfter: nil)
            case .transport: return .retry(Failure(.transport, detail, at: url), retryAfter: nil)
            case .tooLarge: return .fail(Failure(.tooLarge, "the body exceeds the size cap: \(detail)", at: url))
            case .tooManyRedirects: return .fail(Failure(.tooManyRedirects, "too many redirects (a loop?): \(detail)", at: url))
            case .tlsVerification:
                return .fail(Failure(.tlsVerification,
                                     "TLS certificate verification failed (the server's certificate is not trusted): \(detail)", at: url))
            case .invalidURL: return .fail(Failure(.invalidURL, "not a fetchable http(s) URL: \(detail)", at: url))
            case .cancelled: return .fail(cancelled(url))
            }
        }
        let status = outcome.status
        switch status {
        case 200..<300:
            return .done(FetchedDocument(
                url: url, status: status, headers: outcome.headers, body: outcome.body,
                charset: HeaderValues.charset(fromContentType: outcome.headers["content-type"]),
                sha256: sha256Hex(outcome.body), fetchedAt: now))
        case 304:
            guard let previous else {
                return .fail(Failure(.httpStatus, "HTTP 304 to a request that was not conditional", at: url, status: status))
            }
            return .done(notModified(previous, headers: outcome.headers, at: now))
        case 404, 410:
            return .fail(Failure(.notFound, "HTTP \(status): the server has no such document", at: url, status: status))
        case 429, 500..<600:
            let retryAfter = HeaderValues.retryAfter(outcome.headers["retry-after"], now: now)
            if let retryAfter, retryAfter > longestWait {
                return .fail(Failure(.httpStatus,
                                     "HTTP \(status) from the server, which asks to be asked again in \(retryAfter.wholeSeconds) s "
                                     + "(Retry-After), more than the \(longestWait.wholeSeconds) s a retry may wait: not asked again this run", at: url,
                                     status: status))
            }
            return .retry(Failure(.httpStatus, "HTTP \(status) from the server", at: url, status: status),
                          retryAfter: retryAfter)
        default:
            return .fail(Failure(.httpStatus, "HTTP \(status) from the server", at: url, status: status))
        }
    }

    /// Cancellation surfaces as a `Failure` wherever it strikes, so callers handle one type.
    static func cancelled(_ url: String) -> Failure {
        Failure(.cancelled, "the fetch was cancelled", at: url)
    }

    /// The stored copy, confirmed: headers refreshed from the 304 as RFC 9111 §4.3.4 asks, except
    /// those that describe a body the 304 did not carry.
    static func notModified(_ previous: FetchedDocument, headers: [String: String], at now: Date) -> FetchedDocument {
        var document = previous
        for (name, value) in headers where !["content-length", "content-encoding", "transfer-encoding"].contains(name) {
            document.headers[name] = value
        }
        document.fetchedAt = now
        document.notModified = true
        return document
    }

    static func conditionalHeaders(for previous: FetchedDocument?) -> [String] {
        guard let previous else { return [] }
        // Validators come back from disk; one with a line break could smuggle in a header.
        func usable(_ value: String?) -> String? {
            value.flatMap { $0.contains(where: \.isNewline) || $0.isEmpty ? nil : $0 }
        }
        var lines: [String] = []
        if let etag = usable(previous.headers["etag"]) { lines.append("If-None-Match: \(etag)") }
        if let lastModified = usable(previous.headers["last-modified"]) {
            lines.append("If-Modified-Since: \(lastModified)")
        }
        return lines
    }

    /// `host:port`, lower-cased: the unit of politeness.
    static func hostKey(of url: String) throws -> String {
        guard let components = URLComponents(string: url),
              let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https",
              let host = components.host?.lowercased(), !host.isEmpty
        else {
            throw Failure(.invalidURL, "not an http(s) URL with a host", at: url)
        }
        return "\(host):\(components.port ?? (scheme == "https" ? 443 : 80))"
    }
}
