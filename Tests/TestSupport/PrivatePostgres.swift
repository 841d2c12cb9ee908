import Basics
import Foundation

/// A PostgreSQL server of the test's own: a fresh cluster in a temporary folder, listening on
/// 127.0.0.1 on a free port with trust authentication, stopped and removed by `stop()`. Debian's
/// `postgresql` package provides the binaries (scripts/test installs it). The server refuses to
/// run as root, so as root it runs as the package's `postgres` user.
public final class PrivatePostgres: Sendable {
    public let url: String
    public let port: Int
    private let folder: URL
    private let binaries: URL

    /// The newest installed server's binaries, if any.
    public static var binaries: URL? {
        let root = URL(fileURLWithPath: "/usr/lib/postgresql")
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
        return versions.compactMap(Int.init).sorted().last.map { root.appendingPathComponent("\($0)/bin") }
            .flatMap { FileManager.default.isExecutableFile(atPath: $0.appendingPathComponent("initdb").path) ? $0 : nil }
    }

    public static var available: Bool { binaries != nil }

    /// With a `password` (no spaces or quotes), connections over TCP must give it (SCRAM), so
    /// that a wrong one is a real refusal; `url` then holds it.
    public init(password: String? = nil) throws {
        guard let binaries = Self.binaries else { throw Failure("no PostgreSQL server is installed (Debian's postgresql)") }
        self.binaries = binaries
        folder = try Paths.temporaryFolder("postgres")
        port = try Self.freePort()
        url = "host=127.0.0.1 port=\(port) user=postgres dbname=postgres connect_timeout=5"
            + (password.map { " password=\($0)" } ?? "")
        let data = folder.appendingPathComponent("data").path
        var authentication = ["--auth=trust"]
        if let password {
            let file = folder.appendingPathComponent("password")
            try Data((password + "\n").utf8).write(to: file)
            authentication = ["--auth-local=trust", "--auth-host=scram-sha-256", "--pwfile=\(file.path)"]
        }
        if getuid() == 0 { try Self.run(["chown", "-R", "postgres:postgres", folder.path], asServer: false) }
        try Self.run([binaries.appendingPathComponent("initdb").path, "-D", data, "-U", "postgres"] + authentication
                     + ["-E", "UTF8", "--locale=C", "--no-sync"], asServer: true)
        try Self.run([binaries.appendingPathComponent("pg_ctl").path, "-D", data, "-l", folder.appendingPathComponent("log").path,
                      "-w", "-t", "60", "start", "-o",
                      "-p \(port) -c listen_addresses=127.0.0.1 -k \(folder.path) -c fsync=off -c full_page_writes=off"],
                     asServer: true)
    }

    public func stop() {
        try? Self.run([binaries.appendingPathComponent("pg_ctl").path, "-D", folder.appendingPathComponent("data").path,
                       "-m", "immediate", "-w", "stop"], asServer: true)
        try? FileManager.default.removeItem(at: folder)
    }

    /// Runs a command to its end through posix_spawn and waitpid. Not `Process`: on Linux it
    /// learns that a child ended when a descriptor the child inherited closes, and the server
    /// pg_ctl leaves running keeps it open, so `waitUntilExit` would never return.
    private static func run(_ arguments: [String], asServer: Bool) throws {
        let command = (asServer && getuid() == 0 ? ["runuser", "-u", "postgres", "--"] : []) + arguments
        let said = FileManager.default.temporaryDirectory.appendingPathComponent("commissary-postgres-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: said) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, said.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let argv = command.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid = pid_t()
        let spawned = posix_spawnp(&pid, command[0], &actions, nil, argv, environ)
        guard spawned == 0 else { throw Failure("cannot start \(command[0]): error \(spawned)") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        guard status == 0 else {
            let text = (try? String(contentsOf: said, encoding: .utf8)) ?? ""
            throw Failure("\(arguments.first ?? "") ended with status \(status): \(text)")
        }
    }

    /// A port nothing listens on: the kernel's choice for a socket bound to port 0.
    private static func freePort() throws -> Int {
        let socket = Foundation.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw Failure("cannot open a socket") }
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { rebound -> Int32 in
                guard bind(socket, rebound, length) == 0 else { return -1 }
                return getsockname(socket, rebound, &length)
            }
        }
        guard bound == 0 else { throw Failure("cannot find a free port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
        init(_ description: String) { self.description = description }
    }
}
