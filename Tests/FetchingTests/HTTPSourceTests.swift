import Basics
import Foundation
import Synchronization
import TestSupport
import Testing
@testable import Fetching

/// Every case runs against a real HTTP server on 127.0.0.1 and real libcurl.
@Suite struct HTTPSourceTests {
    @Test func servesTheBodyWithItsDigestHeadersAndCharset() async throws {
        let page = try SharedData.bytes(SharedData.recipePage)
        let server = try TestHTTPServer { _, _ in
            Reply(headers: [("Content-Type", "text/html; charset=utf-8"), ("X-Menu-Source", "UCLA")], body: page)
        }
        let document = try await HTTPSource(policy: .quick(), logger: silentLogger).fetch(server.url("/recipe"))

        #expect(document.status == 200)
        #expect(document.body == page)
        // `sha256sum` of the file, computed outside the code under test.
        #expect(document.sha256 == "e33dfa7ea9eee461b1f7eac355f651cdfd20136c9ba06cd16d9653fdcedaedf2")
        #expect(document.headers["x-menu-source"] == "UCLA")
        #expect(document.charset == "utf-8")
        #expect(!document.notModified)
        let request = try #require(server.requests(to: "/recipe").first)
        #expect(request.headers["user-agent"] == "Commissary/0.1.0 (+https://github.com/commissary)")
    }

    @Test func conditionalGetReturnsTheStoredBodyOn304() async throws {
        let page = try SharedData.bytes(SharedData.recipePage)
        let lastModified = "Tue, 12 Oct 2021 08:00:00 GMT"
        let server = try TestHTTPServer { request, count in
            if count == 1 {
                return Reply(headers: [("ETag", "\"v1\""), ("Last-Modified", lastModified)], body: page)
            }
            // The server insists on the validators: without them the test sees a 400, not a 304.
            guard request.headers["if-none-match"] == "\"v1\"",
                  request.headers["if-modified-since"] == lastModified
            else { return Reply(status: 400, body: Data("validators missing".utf8)) }
            return Reply(status: 304, headers: [("ETag", "\"v1\"")])
        }
        let folder = try makeScratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = RawStore(root: folder)
        let source = StoringSource(upstream: HTTPSource(policy: .quick(), logger: silentLogger), store: store)

        let first = try await source.fetch(server.url("/menu"))
        let second = try await source.fetch(server.url("/menu"))

        #expect(!first.notModified)
        #expect(second.notModified)
        #expect(second.body == page)
        #expect(second.sha256 == first.sha256)
        #expect(server.requests(to: "/menu").count == 2)
        #expect(try store.records(for: server.url("/menu")).map(\.notModified) == [false, true])
    }

    @Test func notFoundIsNotRetried() async throws {
        let server = try TestHTTPServer { _, _ in Reply(status: 404) }
        let error = await #expect(throws: Failure.self) {
            try await HTTPSource(policy: .quick(), logger: silentLogger).fetch(server.url("/gone"))
        }
        #expect(error?.code == .notFound)
        #expect(error?.status == 404)
        #expect(server.requests(to: "/gone").count == 1)
    }

    @Test func otherClientErrorsAreNotRetried() async throws {
        let server = try TestHTTPServer { _, _ in Reply(status: 403) }
        let error = await #expect(throws: Failure.self) {
            try await HTTPSource(policy: .quick(), logger: silentLogger).fetch(server.url("/private"))
        }
        #expect(error?.code == .httpStatus)
        #expect(error?.status == 403)
        #expect(server.requests(to: "/private").count == 1)
    }

    @Test func serverErrorIsRetriedToSuccess() async throws {
        let server = try TestHTTPServer { _, count in
            count == 1 ? Reply(status: 500) : Reply(body: Data("second time lucky".utf8))
        }
        let document = try await HTTPSource(policy: .quick(), logger: silentLogger).fetch(server.url("/flaky"))
        #expect(document.body == Data("second time lucky".utf8))
        #expect(server.requests(to: "/flaky").count == 2)
    }

    @Test func connectionResetIsRetriedToSuccess() async throws {
        let server = try TestHTTPServer { _, count in
            count == 1 ? Reply(ending: .reset) : Reply(body: Data("after the reset".utf8))
        }
        let document = try await HTTPSource(policy: .quick(), logger: silentLogger).fetch(server.url("/reset"))
        #expect(document.body == Data("after the reset".utf8))
        #expect(server.requests(to: "/reset").count == 2)
    }

    @Test func persistentServerErrorGivesUpAfterMaxAttempts() async throws {
        let server = try TestHTTPServer { _, _ in Reply(status: 503) }
        let error = await #expect(throws: Failure.self) {
            try await HTTPSource(policy: .quick(maxAttempts: 3), logger: silentLogger).fetch(server.url("/down"))
        }
        #expect(error?.code == .httpStatus)
        #expect(error?.status == 503)
        #expect(server.requests(to: "/down").count == 3)
    }

    @Test func tooManyRequestsHonoursRetryAfter() async throws {
        let server = try TestHTTPServer { _, count in
            count == 1 ? Reply(status: 429, headers: [("Retry-After", "1")]) : Reply(body: Data("ok".utf8))
        }
        let clock = ManualClock()
        let source = HTTPSource(policy: .quick(), logger: silentLogger, clock: clock.runClock)
        let document = try await clock.driving { try await source.fetch(server.url("/busy")) }
        #expect(document.body == Data("ok".utf8))
        #expect(server.requests(to: "/busy").count == 2)
        // The one wait was the server's second, not the back-off's few milliseconds.
        #expect(clock.now.offset == .seconds(1))
    }

    /// A Retry-After of 31 years from a client that may wait 2 s and try four times: one
    /// request, and the failure comes at once (waiting the cap three times would take 6 s).
    @Test func aRetryAfterOfYearsIsNotWaitedFor() async throws {
        let server = try TestHTTPServer { _, _ in Reply(status: 429, headers: [("Retry-After", "999999999")]) }
        let clock = ManualClock()
        let source = HTTPSource(policy: .quick(maxAttempts: 4), logger: silentLogger, clock: clock.runClock)
        let error = await #expect(throws: Failure.self) {
            try await clock.driving { try await source.fetch(server.url("/busy")) }
        }
        #expect(error?.code == .httpStatus)
        #expect(error?.status == 429)
        #expect(server.requests(to: "/busy").count == 1)
        #expect(clock.now.offset == .zero)
    }

    /// Ten attempts allowed at a server that answers 500 and asks for 30 s between them
    /// (Retry-After), and a deadline 100 s away: attempts at 0, 30, 60 and 90 s, then the wait
    /// for the fifth, which would end after the deadline, is not begun; the failure names the
    /// deadline and the last answer.
    @Test func theDeadlineEndsTheRetriesOfAFailingServer() async throws {
        let server = try TestHTTPServer { _, _ in Reply(status: 500, headers: [("Retry-After", "30")]) }
        let clock = ManualClock()
        let runClock = clock.runClock
        var policy = HTTPPolicy.quick(maxAttempts: 10)
        policy.maxRetryDelay = .seconds(60)
        policy.deadline = FetchDeadline(runClock.instant + .seconds(100),
                                        setting: "fetch.max_run_minutes: 1.67 from the run's start")
        let source = HTTPSource(policy: policy, logger: silentLogger, clock: runClock)
        let error = await #expect(throws: Failure.self) {
            try await clock.driving { try await source.fetch(server.url("/down")) }
        }
        #expect(clock.now.offset == .seconds(90))
        #expect(error?.code == .deadline)
        #expect(error?.message == "the run's deadline (fetch.max_run_minutes: 1.67 from the run's start) "
                + "passed while it waited for a retry, after 4 attempt(s), the last: HTTP 500 from the server")
        #expect(server.requests(to: "/down").count == 4)
    }

    /// A server that says nothing for 10 s, a client that would wait 30 s for it: the deadline,
    /// 1 s away, ends the attempt itself.
    @Test func theDeadlineCutsAStalledAnswerShort() async throws {
        let server = try TestHTTPServer { _, _ in Reply(body: Data("too late".utf8), delay: .seconds(10)) }
        var policy = HTTPPolicy.quick(totalTimeout: .seconds(30), maxAttempts: 3)
        policy.deadline = FetchDeadline(RunClock.system.instant + .seconds(1),
                                        setting: "fetch.max_run_minutes: 0.0167 from the run's start")
        let started = ContinuousClock.now
        let error = await #expect(throws: Failure.self) {
            try await HTTPSource(policy: policy, logger: silentLogger).fetch(server.url("/stalled"))
        }
        // Ended by the deadline, not by the answer: well before the server's 10 s (a bound with
        // room for a loaded machine, where starting the server and libcurl takes seconds).
        #expect(ContinuousClock.now - started < .seconds(8))
        #expect(error?.code == .deadline)
        #expect(error?.message.contains("the last: timed out") == true, "\(error?.message ?? "")")
        #expect(server.requests(to: "/stalled").count == 1)
    }

    /// Twelve documents queued for one host that takes a request every 10 s, and a deadline
    /// 25 s away: those whose turn comes after it fail at once, unsent, instead of each waiting
    /// out its spacing first (110 s for the last).
    @Test func requestsWhoseTurnComesAfterTheDeadlineAreNotSent() async throws {
        let server = try TestHTTPServer { _, _ in Reply(body: Data("ok".utf8)) }
        let clock = ManualClock()
        let runClock = clock.runClock
        var policy = HTTPPolicy.quick(maxConcurrentPerHost: 1, minDelayPerHost: .seconds(10))
        policy.deadline = FetchDeadline(runClock.instant + .seconds(25),
                                        setting: "fetch.max_run_minutes: 0.417 from the run's start")
        let source = HTTPSource(policy: policy, logger: silentLogger, clock: runClock)
        let outcomes = await clock.driving {
            await withTaskGroup(of: Result<FetchedDocument, any Error>.self) { group in
                for number in 0..<12 {
                    group.addTask {
                        do { return .success(try await source.fetch(server.url("/queued/\(number)"))) } catch { return .failure(error) }
                    }
                }
                return await group.reduce(into: []) { $0.append($1) }
            }
        }
        // The last wait was for the third start, at 20 s; none for those cut off.
        #expect(clock.now.offset == .seconds(20))
        let fetched = outcomes.filter { if case .success = $0 { true } else { false } }.count
        let cutOff = outcomes.filter { if case .failure(let error as Failure) = $0 { error.code == .deadline } else { false } }
        // Starts at 0, 10 and 20 s come before the deadline; the fourth, at 30 s, would not.
        #expect(fetched == 3)
        #expect(cutOff.count == 9)
        #expect(server.requests.count == 3)
    }

    @Test func slowResponseTimesOut() async throws {
        let server = try TestHTTPServer { _, _ in Reply(body: Data("too late".utf8), delay: .seconds(10)) }
        let started = ContinuousClock.now
        let error = await #expect(throws: Failure.self) {
            try await HTTPSource(policy: .quick(totalTimeout: .milliseconds(300), maxAttempts: 2), logger: silentLogger)
                .fetch(server.url("/slow"))
        }
        #expect(error?.code == .timeout)
        #expect(server.requests(to: "/slow").count == 2)
        // Two attempts that waited for the answer would take 20 s; the bound leaves room for a
        // loaded machine.
        #expect(ContinuousClock.now - started < .seconds(8))
    }

    @Test func truncatedBodyIsReportedAfterRetries() async throws {
        let page = try SharedData.bytes(SharedData.recipePage)
        let server = try TestHTTPServer { _, _ in
            Reply(body: page.prefix(1000), ending: .truncated(declaredLength: page.count))
        }
        let error = await #expect(throws: Failure.self) {
            try await HTTPSource(policy: .quick(maxAttempts: 2), logger: silentLogger).fetch(server.url("/cut"))
        }
        #expect(error?.code == .truncated)
        #expect(server.requests(to: "/cut").count == 2)
    }

    @Test func charsetIsReportedAsTheHeaderDeclaresIt() async throws {
        let page = try SharedData.bytes(SharedData.recipePage)
        let server = try TestHTTPServer { _, _ in
            Reply(headers: [("Content-Type", "text/html; charset=ISO-8859-1")], body: page)
        }
        let document = try await HTTPSource(policy: .quick(), logger: silentLogger).fetch(server.url("/latin"))
        #expect(document.charset == "ISO-8859-1")
        // The bytes are left alone: U+2019 is still its UTF-8 sequence E2 80 99.
        #expect(document.body == page)
        #expect(document.body.range(of: Data([0xE2, 0x80, 0x99])) != nil)
    }

    @Test func redirectLoopEndsAsTooManyRedirects() async throws {
        let server = try TestHTTPServer { _, _ in Reply(status: 302, headers: [("Location", "/loop")]) }
        let error = await #expect(throws: Failure.self) {
            try await HTTPSource(policy: .quick(), logger: silentLogger).fetch(server.url("/loop"))
        }
        #expect(error?.code == .tooManyRedirects)
        // The first request and the three redirects the policy allows; no retry.
        #expect(server.requests(to: "/loop").count == 4)
    }

    @Test(arguments: [Reply.Ending.complete, .closeDelimited])
    func bodyOverTheCapIsTooLarge(ending: Reply.Ending) async throws {
        let page = try SharedData.bytes(SharedData.overviewPage)
        let server = try TestHTTPServer { _, _ in Reply(body: page, ending: ending) }
        let error = await #expect(throws: Failure.self) {
            try await HTTPSource(policy: .quick(maxBodyBytes: 64 * 1024), logger: silentLogger).fetch(server.url("/big"))
        }
        #expect(error?.code == .tooLarge)
        #expect(server.requests(to: "/big").count == 1)
    }

    @Test func gzipResponseIsDecoded() async throws {
        let page = try SharedData.bytes(SharedData.overviewPage)
        let compressed = try gzipped(page)
        let server = try TestHTTPServer { request, _ in
            guard request.headers["accept-encoding"]?.contains("gzip") == true else { return Reply(body: page) }
            return Reply(headers: [("Content-Encoding", "gzip"), ("Content-Type", "text/html")], body: compressed)
        }
        let document = try await HTTPSource(policy: .quick(), logger: silentLogger).fetch(server.url("/zipped"))
        #expect(compressed.count < page.count / 2)
        #expect(document.headers["content-encoding"] == "gzip")
        #expect(document.body == page)
        #expect(document.sha256 == "69ad7d9a6655485585d0ca4a62a2db061624168e236087da4cc2d57ade085a37")
    }

    /// Three requests to one host that takes one at a time, 200 ms apart: each reaches the server
    /// when the clock says its turn has come (read by the server as it arrives), never two at once.
    @Test func oneHostGetsOneConnectionAtATimeWithSpacing() async throws {
        let clock = ManualClock()
        let arrivals = Mutex<[Duration]>([])
        let server = try TestHTTPServer { _, _ in
            arrivals.withLock { $0.append(clock.now.offset) }
            return Reply(body: Data("x".utf8), delay: .milliseconds(100))
        }
        let source = HTTPSource(policy: .quick(maxConcurrentPerHost: 1, minDelayPerHost: .milliseconds(200)),
                                logger: silentLogger, clock: clock.runClock)
        try await clock.driving {
            try await withThrowingTaskGroup(of: FetchedDocument.self) { group in
                for _ in 0..<3 {
                    group.addTask { try await source.fetch(server.url("/polite")) }
                }
                try await group.waitForAll()
            }
        }
        #expect(arrivals.withLock { $0 } == [.zero, .milliseconds(200), .milliseconds(400)])
        #expect(server.mostConcurrentConnections == 1)
    }

    @Test func theNextRequestReusesTheOpenConnection() async throws {
        let server = try TestHTTPServer { _, count in Reply(body: Data("page \(count)".utf8), keepAlive: true) }
        let source = HTTPSource(policy: .quick(), logger: silentLogger)
        let first = try await source.fetch(server.url("/kept"))
        let second = try await source.fetch(server.url("/kept"))
        #expect(first.body == Data("page 1".utf8))
        #expect(second.body == Data("page 2".utf8))
        #expect(server.connectionsAccepted == 1)
    }

    @Test(arguments: ["ftp://127.0.0.1/menu", "file:///etc/passwd", "not a url", "http:///no-host"])
    func nonHTTPURLsAreRefused(url: String) async throws {
        let error = await #expect(throws: Failure.self) {
            try await HTTPSource(policy: .quick(), logger: silentLogger).fetch(url)
        }
        #expect(error?.code == .invalidURL)
    }
}

@Suite struct HTTPSourceSafetyTests {
    /// Needs the `openssl` command, which scripts/test installs with the other system packages.
    @Test func untrustedCertificateIsRefused() async throws {
        let server = try UntrustedTLSServer()
        let error = await #expect(throws: Failure.self) {
            try await HTTPSource(policy: .quick(maxAttempts: 3), logger: silentLogger).fetch(server.url("/"))
        }
        #expect(error?.code == .tlsVerification)
        #expect(error?.message.contains("certificate verification failed") == true)
    }

    @Test func cancellingTheTaskAbortsTheTransfer() async throws {
        let server = try TestHTTPServer { _, _ in Reply(body: Data("never seen".utf8), delay: .seconds(8)) }
        let source = HTTPSource(policy: .quick(totalTimeout: .seconds(10)), logger: silentLogger)
        let started = ContinuousClock.now
        let fetch = Task { try await source.fetch(server.url("/stall")) }
        try await server.waitForRequests(to: "/stall", count: 1)
        fetch.cancel()
        let result = await fetch.result
        let error = #expect(throws: Failure.self) { try result.get() }
        #expect(error?.code == .cancelled && error?.description == "\(server.url("/stall")): the fetch was cancelled")
        // curl polls its progress callback about once a second: without cancellation the fetch
        // would end with the body after the server's 8 s; the bound leaves room for a loaded machine.
        #expect(ContinuousClock.now - started < .milliseconds(7500))
    }
}
