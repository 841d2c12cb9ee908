import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A small HTTP/1.1 server on 127.0.0.1 and an ephemeral port that answers like TheMealDB, for
/// backfill tests that must never touch the network. Trimmed from FetchingTests' scripted
/// server: whole answers only, one request per connection, every request counted by path.
///
/// Every loop is bounded: the accept loop polls with a timeout and the server shuts itself down
/// after `lifetime`, so a failing test cannot hang the suite.
final class MealDBTestServer: @unchecked Sendable {
    struct Answer: Sendable {
        var status: Int
        var body: Data
    }

    let port: UInt16
    private let listener: Int32
    private let answer: @Sendable (String) -> Answer
    private let deadline: ContinuousClock.Instant
    private let lock = NSLock()
    private var received: [(path: String, at: ContinuousClock.Instant)] = []
    private var stopped = false

    init(lifetime: Duration = .seconds(120), answer: @escaping @Sendable (String) -> Answer) throws {
        self.answer = answer
        self.deadline = .now + lifetime
        let socketDescriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socketDescriptor >= 0 else { throw TestServerError("socket", errno) }
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
            throw TestServerError("bind/listen", code)
        }
        listener = socketDescriptor
        port = UInt16(bigEndian: address.sin_port)
        Thread { [self] in acceptLoop() }.start()
    }

    deinit { stop() }

    var base: String { "http://127.0.0.1:\(port)" }

    func stop() {
        lock.withLock { stopped = true }
    }

    /// How many requests reached each path (with its query).
    var counts: [String: Int] {
        lock.withLock { Dictionary(received.map { ($0.path, 1) }, uniquingKeysWith: +) }
    }

    /// When each request arrived, in order.
    var arrivals: [ContinuousClock.Instant] {
        lock.withLock { received.map(\.at) }
    }

    private var shouldStop: Bool {
        lock.withLock { stopped } || ContinuousClock.now >= deadline
    }

    private func acceptLoop() {
        defer { close(listener) }
        while !shouldStop {
            var poller = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 50) > 0 else { continue }
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { continue }
            Thread { [self] in serve(connection) }.start()
        }
    }

    private func serve(_ connection: Int32) {
        defer { close(connection) }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        guard !shouldStop, let path = readRequestPath(connection) else { return }
        lock.withLock { received.append((path, .now)) }
        let reply = answer(path)
        let head = "HTTP/1.1 \(reply.status) \(reply.status == 200 ? "OK" : "Status")\r\n"
            + "Content-Type: application/json\r\nContent-Length: \(reply.body.count)\r\nConnection: close\r\n\r\n"
        sendAll(connection, Data(head.utf8) + reply.body)
    }

    /// Reads up to the blank line that ends the head; GET requests carry no body.
    private func readRequestPath(_ connection: Int32) -> String? {
        var bytes = Data()
        let terminator = Data("\r\n\r\n".utf8)
        var chunk = [UInt8](repeating: 0, count: 4096)
        while bytes.range(of: terminator) == nil, bytes.count < 65536 {
            let count = recv(connection, &chunk, chunk.count, 0)
            guard count > 0 else { return nil }
            bytes.append(contentsOf: chunk[0..<count])
        }
        let requestLine = String(decoding: bytes, as: UTF8.self).prefix { $0 != "\r" }.split(separator: " ")
        return requestLine.count >= 2 ? String(requestLine[1]) : nil
    }

    /// A client that gave up (or was killed) has closed its end: MSG_NOSIGNAL turns SIGPIPE into
    /// an ignored error.
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

struct TestServerError: Error, CustomStringConvertible {
    var description: String

    init(_ call: String, _ code: Int32) {
        description = "test server: \(call) failed: \(String(cString: strerror(code)))"
    }
}
