import Foundation
import Testing
@testable import Fetching

@Suite struct RetryPolicyTests {
    @Test func retryAfterReadsSecondsAndHTTPDates() {
        // RFC 9110's own example date; "now" five seconds before it.
        let now = Date(timeIntervalSince1970: 784_111_777 - 5)
        #expect(HeaderValues.retryAfter("120") == .seconds(120))
        #expect(HeaderValues.retryAfter("Sun, 06 Nov 1994 08:49:37 GMT", now: now) == .seconds(5))
        #expect(HeaderValues.retryAfter("Sun, 06 Nov 1994 08:49:37 GMT", now: now + 60) == .zero)
        #expect(HeaderValues.retryAfter("soon") == nil)
        #expect(HeaderValues.retryAfter("-3") == nil)
    }

    @Test func retryAfterIsCappedByTheMaximumDelay() {
        let policy = HTTPPolicy(maxRetryDelay: .seconds(30))
        #expect(policy.delay(afterAttempt: 1, retryAfter: .seconds(3600)) == .seconds(30))
        #expect(policy.delay(afterAttempt: 1, retryAfter: .seconds(2)) == .seconds(2))
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
