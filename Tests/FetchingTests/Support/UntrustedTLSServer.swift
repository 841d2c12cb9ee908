import Foundation
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// A real HTTPS server on 127.0.0.1 (`openssl s_server`) whose self-signed certificate no
/// trust store accepts, so certificate verification must fail.
final class UntrustedTLSServer {
    let port: UInt16
    private let process: Process
    private let folder: URL

    init() throws {
        folder = try makeScratchFolder()
        try Self.run([
            "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
            "-keyout", folder.appendingPathComponent("key.pem").path,
            "-out", folder.appendingPathComponent("cert.pem").path,
            "-days", "1", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
        ])
        port = try Self.freePort()
        process = Process()
        // Bounded like `TestHTTPServer`: a test that connects fewer than four times, or is
        // stopped before this object goes, must not leave a server running after the suite.
        process.executableURL = URL(fileURLWithPath: "/usr/bin/timeout")
        process.arguments = [
            "60", "/usr/bin/openssl",
            "s_server", "-www", "-naccept", "4", "-accept", "127.0.0.1:\(port)",
            "-cert", folder.appendingPathComponent("cert.pem").path,
            "-key", folder.appendingPathComponent("key.pem").path,
        ]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.runWithSignalsUnblocked()
        try Self.waitUntilListening(output.fileHandleForReading)
    }

    deinit {
        if process.isRunning { process.terminate() }
        try? FileManager.default.removeItem(at: folder)
    }

    func url(_ path: String) -> String { "https://127.0.0.1:\(port)\(path)" }

    private static func run(_ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.runWithSignalsUnblocked()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw ServerError("openssl \(arguments[0])", EINVAL) }
    }

    /// Asks the kernel for an unused port by binding port 0, then frees it for openssl.
    private static func freePort() throws -> UInt16 {
        let probe = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard probe >= 0 else { throw ServerError("socket", errno) }
        defer { close(probe) }
        var address = loopback(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(probe, $0, length) == 0 && getsockname(probe, $0, &length) == 0
            }
        }
        guard bound else { throw ServerError("bind", errno) }
        return UInt16(bigEndian: address.sin_port)
    }

    /// Reads openssl's output up to the `ACCEPT` it prints once it listens (or to its end, when
    /// it failed to start); the rest of what it prints, a few lines per connection, stays in the pipe.
    private static func waitUntilListening(_ output: FileHandle) throws {
        var printed = Data()
        while !String(decoding: printed, as: UTF8.self).contains("ACCEPT\n") {
            let piece = output.availableData
            guard !piece.isEmpty else { throw ServerError("openssl s_server did not listen", ECONNREFUSED) }
            printed += piece
        }
    }

    private static func loopback(port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr = in_addr(s_addr: inet_addr("127.0.0.1"))
        return address
    }
}
