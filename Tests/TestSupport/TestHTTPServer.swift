import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// What the test server sends back for one request; faults are part of the script.
public struct Reply: Sendable {
    public enum Ending: Sendable {
        /// `Content-Length` matches the body.
        case complete
        /// Declares `declaredLength` bytes, sends the (shorter) body, then closes.
        case truncated(declaredLength: Int)
        /// No `Content-Length`: the body ends when the connection closes.
        case closeDelimited
        /// Resets the connection (RST) without answering.
        case reset
    }

    public var status: Int = 200
    public var headers: [(String, String)] = []
    public var body = Data()
    /// Silence before the first byte of the answer; a stall when longer than the client waits.
    public var delay: Duration = .zero
    public var ending: Ending = .complete
    /// Leaves a `.complete` answer's connection open for the client's next request.
    public var keepAlive = false

    public init(status: Int = 200, headers: [(String, String)] = [], body: Data = Data(),
                delay: Duration = .zero, ending: Ending = .complete, keepAlive: Bool = false) {
        self.status = status
        self.headers = headers
        self.body = body
        self.delay = delay
        self.ending = ending
        self.keepAlive = keepAlive
    }
}

/// A request as the server parsed it, with header names lower-cased.
public struct ReceivedRequest: Sendable {
    public var method: String
    public var path: String
    public var headers: [String: String]
    public var receivedAt: ContinuousClock.Instant
}

/// A small HTTP/1.1 server on 127.0.0.1 and an ephemeral port, one thread per connection,
/// answering from a script so that tests can stage every fault a real server commits.
///
/// Every loop is bounded: the accept loop polls with a timeout and the whole server shuts
/// itself down after `lifetime`, so a failing test cannot hang the suite.
public final class TestHTTPServer: @unchecked Sendable {
    /// Gets the request and how many requests (this one included) reached its path.
    public typealias Script = @Sendable (ReceivedRequest, Int) -> Reply

    public let port: UInt16
    private let listener: Int32
    private let script: Script
    private let deadline: ContinuousClock.Instant
    private let lock = NSLock()
    /// Signalled by `stop`, so that a scripted stall ends with the server.
    private let stopping = NSCondition()
    private var received: [ReceivedRequest] = []
    /// How many requests reached each path, for the script's count.
    private var receivedByPath: [String: Int] = [:]
    private static let requestsPerConnection = 16
    private var stopped = false
    /// Set when the server no longer accepts, after which no awaited arrival can come.
    private var closed = false
    private var arrivalWaiters: [(path: String, count: Int, continuation: CheckedContinuation<Void, any Error>)] = []
    private var open = 0
    private var mostOpen = 0
    private var accepted = 0

    /// `lifetime`: long enough for a test that makes whole runs against the server on a loaded
    /// machine (20 s ran out under a run of fifty suites side by side, and 120 s under a load
    /// of 16 on two cores, every later request refused); a test stops its server when it ends,
    /// so only a hung one waits it out.
    public init(lifetime: Duration = .seconds(300), script: @escaping Script) throws {
        self.script = script
        self.deadline = .now + lifetime
        // Close-on-exec, so that a child process a test starts (the commissary binary) does not
        // inherit the server's sockets and keep closed connections open.
        let socketDescriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard socketDescriptor >= 0 else { throw ServerError("socket", errno) }
        var reuse: Int32 = 1
        setsockopt(socketDescriptor, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr = in_addr(s_addr: inet_addr("127.0.0.1"))
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                bind(socketDescriptor, generic, length) == 0
                    && listen(socketDescriptor, 64) == 0
                    && getsockname(socketDescriptor, generic, &length) == 0
            }
        }
        guard bound else {
            let code = errno
            close(socketDescriptor)
            throw ServerError("bind/listen", code)
        }
        listener = socketDescriptor
        port = UInt16(bigEndian: address.sin_port)
        let acceptThread = Thread { [self] in acceptLoop() }
        acceptThread.start()
    }

    deinit { stop() }

    public func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

    public func stop() {
        lock.withLock { stopped = true }
        stopping.lock()
        stopping.broadcast()
        stopping.unlock()
    }

    /// Returns once `count` requests have reached `path`, so that a test acts on an arrival
    /// instead of guessing how long it takes; throws when the server stops accepting first.
    public func waitForRequests(to path: String, count: Int) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            let outcome: Result<Void, any Error>? = lock.withLock {
                if received.lazy.filter({ $0.path == path }).count >= count { return .success(()) }
                if closed { return .failure(ServerError("the server stopped before \(count) request(s) to \(path)", ETIMEDOUT)) }
                arrivalWaiters.append((path, count, continuation))
                return nil
            }
            if let outcome { continuation.resume(with: outcome) }
        }
    }

    public func requests(to path: String) -> [ReceivedRequest] {
        lock.withLock { received.filter { $0.path == path } }
    }

    /// Every request received so far, in arrival order.
    public var requests: [ReceivedRequest] { lock.withLock { received } }

    /// How many requests reached each path (query string included).
    public var requestCounts: [String: Int] {
        lock.withLock { Dictionary(received.map { ($0.path, 1) }, uniquingKeysWith: +) }
    }

    public var connectionsAccepted: Int { lock.withLock { accepted } }

    /// The largest number of connections that were being served at the same moment.
    public var mostConcurrentConnections: Int { lock.withLock { mostOpen } }

    private var shouldStop: Bool {
        lock.withLock { stopped } || ContinuousClock.now >= deadline
    }

    private func acceptLoop() {
        defer {
            close(listener)
            let waiting = lock.withLock {
                closed = true
                defer { arrivalWaiters = [] }
                return arrivalWaiters
            }
            for waiter in waiting {
                waiter.continuation.resume(throwing: ServerError("the server stopped before \(waiter.count) request(s) to \(waiter.path)", ETIMEDOUT))
            }
        }
        while !shouldStop {
            var poller = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 50) > 0 else { continue }
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { continue }
            _ = fcntl(connection, F_SETFD, FD_CLOEXEC)
            Thread { [self] in serve(connection) }.start()
        }
    }

    private func serve(_ connection: Int32) {
        lock.withLock {
            accepted += 1
            open += 1
            mostOpen = max(mostOpen, open)
        }
        // A connection stops counting as open before its last answer leaves: a client that has
        // the answer may open its next connection at once, before this thread gets to `close`.
        var counted = true
        func release() {
            if counted { lock.withLock { open -= 1 } }
            counted = false
        }
        defer {
            close(connection)
            release()
        }
        // Long enough that a kept-alive connection outlives a busy machine's pauses between a
        // test's requests; the server's own lifetime still bounds it.
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        // At most a few requests per connection, and none once the server is stopping; the last
        // says it closes, so that a client does not send the next one into a closed connection.
        for served in 0..<Self.requestsPerConnection where !shouldStop {
            guard let request = readRequest(connection) else { return }
            let (count, arrived) = lock.withLock {
                received.append(request)
                receivedByPath[request.path, default: 0] += 1
                let count = receivedByPath[request.path] ?? 0
                let arrived = arrivalWaiters.filter { $0.path == request.path && $0.count <= count }
                arrivalWaiters.removeAll { $0.path == request.path && $0.count <= count }
                return (count, arrived)
            }
            for waiter in arrived { waiter.continuation.resume() }
            var reply = script(request, count)
            if served == Self.requestsPerConnection - 1 { reply.keepAlive = false }
            stall(for: reply.delay)
            switch reply.ending {
            case .reset:
                var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
                setsockopt(connection, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
                return
            case .complete:
                if !reply.keepAlive { release() }
                sendAll(connection, head(reply, contentLength: reply.body.count) + reply.body)
                if !reply.keepAlive { return }
            case .truncated(let declaredLength):
                release()
                sendAll(connection, head(reply, contentLength: declaredLength) + reply.body)
                return
            case .closeDelimited:
                release()
                sendAll(connection, head(reply, contentLength: nil) + reply.body)
                return
            }
        }
    }

    /// Holds the answer back for `delay`, or until the server stops or its lifetime ends.
    private func stall(for delay: Duration) {
        let left = min(delay, deadline - ContinuousClock.now)
        let (seconds, attoseconds) = left.components
        let wakeUp = Date().addingTimeInterval(Double(seconds) + Double(attoseconds) / 1e18)
        stopping.lock()
        defer { stopping.unlock() }
        while !lock.withLock({ stopped }), Date() < wakeUp {
            _ = stopping.wait(until: wakeUp)
        }
    }

    private func head(_ reply: Reply, contentLength: Int?) -> Data {
        var lines = ["HTTP/1.1 \(reply.status) \(Self.reason(reply.status))"]
        lines += reply.headers.map { "\($0.0): \($0.1)" }
        if let contentLength { lines.append("Content-Length: \(contentLength)") }
        if !(reply.keepAlive && contentLength == reply.body.count) { lines.append("Connection: close") }
        return Data((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8)
    }

    private static func reason(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 302: "Found"
        case 304: "Not Modified"
        case 404: "Not Found"
        case 429: "Too Many Requests"
        case 500: "Internal Server Error"
        default: "Status"
        }
    }

    /// Reads up to the blank line that ends the head; GET requests carry no body.
    private func readRequest(_ connection: Int32) -> ReceivedRequest? {
        var bytes = Data()
        let terminator = Data("\r\n\r\n".utf8)
        var chunk = [UInt8](repeating: 0, count: 4096)
        while bytes.range(of: terminator) == nil, bytes.count < 65536 {
            let count = recv(connection, &chunk, chunk.count, 0)
            guard count > 0 else { return nil }
            bytes.append(contentsOf: chunk[0..<count])
        }
        let lines = String(decoding: bytes, as: UTF8.self).components(separatedBy: "\r\n")
        let requestLine = lines[0].split(separator: " ")
        guard requestLine.count >= 2 else { return nil }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return ReceivedRequest(
            method: String(requestLine[0]), path: String(requestLine[1]), headers: headers, receivedAt: .now)
    }

    /// A client that gave up has closed its end: MSG_NOSIGNAL turns SIGPIPE into an ignored error.
    private func sendAll(_ connection: Int32, _ data: Data) {
        data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) in
            guard let base = buffer.baseAddress else { return }
            var offset = 0
            while offset < buffer.count {
                let sent = send(connection, base + offset, buffer.count - offset, Int32(MSG_NOSIGNAL))
                guard sent > 0 else { return }
                offset += sent
            }
        }
    }
}

public struct ServerError: Error, CustomStringConvertible {
    public var description: String

    public init(_ call: String, _ code: Int32) {
        description = "test server: \(call) failed: \(String(cString: strerror(code)))"
    }
}
