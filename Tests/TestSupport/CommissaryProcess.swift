import Foundation

/// The real `commissary` binary, as scripts and schedulers run it.
///
/// Waiting polls instead of blocking: Swift Testing runs tests on the cooperative pool, which has
/// one thread per core, and a thread blocked in `waitUntilExit` starves the other tests.
public enum CommissaryProcess {
    /// The binary SwiftPM builds beside the test bundle (the test targets depend on it).
    public static var binary: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("commissary")
    }

    public struct Outcome: Sendable {
        public var status: Int32
        public var output: String
        public var error: String
    }

    /// Starts the binary with its output discarded, for tests that kill it.
    public static func start(_ arguments: [String]) throws -> Process {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    public static func exit(of process: Process) async throws -> Int32 {
        while process.isRunning { try await Task.sleep(for: .milliseconds(2)) }
        return process.terminationStatus
    }

    /// Runs the binary to its end and returns its exit status, standard output and standard error.
    /// `standardOutput` or `standardError`, when given, replace the file that captures it (a
    /// full device, a pipe nobody reads); what went there is then not in the outcome.
    public static func run(_ arguments: [String], standardOutput: FileHandle? = nil,
                           standardError: FileHandle? = nil) async throws -> Outcome {
        let folder = try Paths.temporaryFolder("output")
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("out")
        let err = folder.appendingPathComponent("err")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)
        let outHandle = try FileHandle(forWritingTo: out)
        let errHandle = try FileHandle(forWritingTo: err)
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        process.standardOutput = standardOutput ?? outHandle
        process.standardError = standardError ?? errHandle
        try process.run()
        let status = try await exit(of: process)
        try outHandle.close()
        try errHandle.close()
        return Outcome(status: status, output: String(decoding: try Data(contentsOf: out), as: UTF8.self),
                       error: String(decoding: try Data(contentsOf: err), as: UTF8.self))
    }
}
