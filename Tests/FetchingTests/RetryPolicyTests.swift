import Basics
import Foundation
import Testing
@testable import Fetching

@Suite struct RetryPolicyTests {
    @Test func retryAfterReadsSecondsAndHTTPDates() {
        // RFC 9110's own example date; "now" five seconds before it.
        let now = Date(timeIntervalSince1970: 784_111_777 - 5)
        #expect(HeaderValues.retryAfter("120", now: now) == .seconds(120))
        #expect(HeaderValues.retryAfter("Sun, 06 Nov 1994 08:49:37 GMT", now: now) == .seconds(5))
        #expect(HeaderValues.retryAfter("Sun, 06 Nov 1994 08:49:37 GMT", now: now + 60) == .zero)
        #expect(HeaderValues.retryAfter("soon", now: now) == nil)
        #expect(HeaderValues.retryAfter("-3", now: now) == nil)
    }

    @Test func retryAfterIsCappedByTheMaximumDelay() {
        let policy = HTTPPolicy(maxRetryDelay: .seconds(30))
        #expect(policy.delay(afterAttempt: 1, retryAfter: .seconds(3600)) == .seconds(30))
        #expect(policy.delay(afterAttempt: 1, retryAfter: .seconds(2)) == .seconds(2))
    }

    /// A server that asks to wait longer than a retry may (a Retry-After of 31 years) is not
    /// asked again sooner than it asked, nor waited for: the attempt's failure is final. Up to
    /// the longest wait, its request is honoured as it stands.
    @Test func aRetryAfterLongerThanTheLongestWaitEndsTheAttempts() {
        func verdict(_ status: Int, retryAfter: String) -> HTTPSource.Verdict {
            HTTPSource.verdict(on: TransferOutcome(failure: nil, detail: "", status: status,
                                                   headers: ["retry-after": retryAfter], body: Data()),
                               url: "https://dining.example/menus/2026-10-12.json", previous: nil,
                               longestWait: .seconds(30), now: Date())
        }
        guard case .fail(let error) = verdict(429, retryAfter: "999999999") else {
            Issue.record("a Retry-After of 999999999 s was to be retried")
            return
        }
        #expect(error.code == .httpStatus && error.status == 429)
        #expect(error.message == "HTTP 429 from the server, which asks to be asked again in 999999999 s (Retry-After), "
                + "more than the 30 s a retry may wait: not asked again this run")
        guard case .fail = verdict(503, retryAfter: "31") else {
            Issue.record("a Retry-After of 31 s, one past the longest wait, was to be retried")
            return
        }
        guard case .retry(_, let asked) = verdict(503, retryAfter: "30") else {
            Issue.record("a Retry-After of exactly the longest wait was not retried")
            return
        }
        #expect(asked == .seconds(30))
        guard case .retry(_, let none) = verdict(500, retryAfter: "soon") else {
            Issue.record("a 500 without a readable Retry-After was not retried")
            return
        }
        #expect(none == nil)
    }

    /// An attempt may take the policy's whole limit unless the deadline comes first; once it has
    /// come, curl is still given a limit (a millisecond), never zero, which curl reads as none.
    @Test func anAttemptEndsByTheDeadline() {
        let now = RunClock.system.instant
        var policy = HTTPPolicy(totalTimeout: .seconds(30))
        #expect(policy.attemptTimeout(at: now) == .seconds(30))
        policy.deadline = FetchDeadline(now + .seconds(5), setting: "fetch.max_run_minutes: 1")
        #expect(policy.attemptTimeout(at: now) == .seconds(5))
        #expect(policy.attemptTimeout(at: now + .seconds(4)) == .seconds(1))
        #expect(policy.attemptTimeout(at: now + .seconds(9)) == .milliseconds(1))
        policy.deadline = FetchDeadline(now + .seconds(600), setting: "fetch.max_run_minutes: 10")
        #expect(policy.attemptTimeout(at: now) == .seconds(30))
    }

    @Test func jitteredBackoffStaysUnderADoublingCeiling() {
        let policy = HTTPPolicy(backoffBase: .milliseconds(100), maxRetryDelay: .milliseconds(350))
        for _ in 0..<200 {
            #expect(policy.delay(afterAttempt: 1, retryAfter: nil) <= .milliseconds(100))
            #expect(policy.delay(afterAttempt: 2, retryAfter: nil) <= .milliseconds(200))
            #expect(policy.delay(afterAttempt: 6, retryAfter: nil) <= .milliseconds(350))
        }
        // Full jitter spreads retries out: 200 draws from [0, 350 ms] are not all alike.
        let draws = Set((0..<200).map { _ in policy.delay(afterAttempt: 6, retryAfter: nil) })
        #expect(draws.count > 100)
    }

    @Test func charsetParameterIsTakenAsWritten() {
        #expect(HeaderValues.charset(fromContentType: "text/html; charset=ISO-8859-1") == "ISO-8859-1")
        #expect(HeaderValues.charset(fromContentType: "text/html;Charset=\"utf-8\"") == "utf-8")
        #expect(HeaderValues.charset(fromContentType: "application/json") == nil)
        #expect(HeaderValues.charset(fromContentType: nil) == nil)
    }
}
