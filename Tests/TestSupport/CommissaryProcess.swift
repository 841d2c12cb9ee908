import Foundation
import Synchronization

/// The real `commissary` binary, as scripts and schedulers run it.
///
/// Waiting awaits the exit Foundation announces instead of blocking: Swift Testing runs tests on
/// the cooperative pool, which has one thread per core, and a thread blocked in `waitUntilExit`
/// starves the other tests.
public enum CommissaryProcess {
    /// The exit of each process started by `launch` that no one has awaited yet (with the process,
    /// so that its identity is not reused meanwhile).
    private static let exits = Mutex<[ObjectIdentifier: (process: Process, exit: ExitSignal)]>([:])

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

    /// How long one run of the binary may take before a test takes it for hung: it is killed and
    /// the test fails, naming the run. The longest runs of the suite take a minute or two on a
    /// loaded machine; a run that waits forever (for a server that never answers, on a full
    /// disk) then ends its own test, where it would otherwise hold the suite until CI's limit
    /// ends it without saying which run it was.
    public static let hungAfter: Duration = .seconds(900)

    /// A run killed for lasting longer than its limit, with the last lines it had written to
    /// standard error: where it was waiting.
    public struct Hung: Error, CustomStringConvertible {
        public let arguments: [String]
        public let limit: Duration
        public let lastWords: String

        public var description: String {
            "commissary \(arguments.joined(separator: " ")) still ran after \(limit): killed as hung"
                + (lastWords.isEmpty ? "" : "; its standard error ended with:\n" + lastWords)
        }
    }

    /// Starts the binary with its output discarded, for tests that kill it. `environment` adds to
    /// or replaces variables of this process's environment for the child only.
    public static func start(_ arguments: [String], environment: [String: String] = [:]) throws -> Process {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, given in given }
        }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try launch(process)
        return process
    }

    /// Runs `process` (any program) so that `exit(of:)` can await its end.
    public static func launch(_ process: Process) throws {
        let exit = ExitSignal()
        process.terminationHandler = { exit.announce($0.terminationStatus) }
        exits.withLock { $0[ObjectIdentifier(process)] = (process, exit) }
        do {
            try process.runWithSignalsUnblocked()
        } catch {
            exits.withLock { _ = $0.removeValue(forKey: ObjectIdentifier(process)) }
            throw error
        }
    }

    /// The exit status of a process started by `launch` (or `start`), once it has ended.
    public static func exit(of process: Process) async throws -> Int32 {
        try await ending(of: process).status
    }

    /// How a process started by `launch` (or `start`) ended: its exit status, and when its exit
    /// was announced. A test that times a process's stop takes that instant, not the moment its
    /// own task resumes: on a loaded machine the tests running beside it can hold the cooperative
    /// pool for seconds after the process has ended.
    public static func ending(of process: Process) async throws -> Ending {
        guard let exit = exits.withLock({ $0.removeValue(forKey: ObjectIdentifier(process))?.exit }) else {
            throw CocoaError(.featureUnsupported, userInfo: [NSDebugDescriptionErrorKey: "the process was not launched by CommissaryProcess"])
        }
        return await exit.ending()
    }

    public struct Ending: Sendable {
        public var status: Int32
        public var at: ContinuousClock.Instant
    }

    /// Runs the binary to its end and returns its exit status, standard output and standard error.
    /// `standardOutput` or `standardError`, when given, replace the file that captures it (a
    /// full device, a pipe nobody reads); what went there is then not in the outcome. `environment`
    /// adds to or replaces variables of this process's environment for the child only. A run
    /// still going after `limit` is killed, and `Hung` thrown.
    public static func run(_ arguments: [String], standardOutput: FileHandle? = nil,
                           standardError: FileHandle? = nil, environment: [String: String] = [:],
                           hungAfter limit: Duration = hungAfter) async throws -> Outcome {
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
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, given in given }
        }
        process.standardOutput = standardOutput ?? outHandle
        process.standardError = standardError ?? errHandle
        try launch(process)
        let announced = exits.withLock { $0[ObjectIdentifier(process)]?.exit }
        let watchdog = Task {
            try await Task.sleep(for: limit)
            // Not once its exit is announced: by then its process id may be another's.
            guard announced?.hasEnded == false else { return false }
            kill(process.processIdentifier, SIGKILL)
            return true
        }
        let status = try await exit(of: process)
        watchdog.cancel()
        let killed = (try? await watchdog.value) == true
        try outHandle.close()
        try errHandle.close()
        let error = String(decoding: try Data(contentsOf: err), as: UTF8.self)
        if killed {
            throw Hung(arguments: arguments, limit: limit,
                       lastWords: error.split(separator: "\n").suffix(20).joined(separator: "\n"))
        }
        return Outcome(status: status, output: String(decoding: try Data(contentsOf: out), as: UTF8.self), error: error)
    }
}

/// One process's exit status, announced once, awaited by any number of tasks.
private final class ExitSignal: Sendable {
    typealias Ending = CommissaryProcess.Ending
    private let state = Mutex<(ending: Ending?, waiting: [CheckedContinuation<Ending, Never>])>((nil, []))

    /// Called from Foundation's termination handler, on a thread of its own, as the exit is seen.
    func announce(_ status: Int32) {
        let ending = Ending(status: status, at: .now)
        let waiting = state.withLock { state in
            state.ending = ending
            defer { state.waiting = [] }
            return state.waiting
        }
        for waiter in waiting { waiter.resume(returning: ending) }
    }

    /// Whether the exit was announced.
    var hasEnded: Bool {
        state.withLock { $0.ending != nil }
    }

    func ending() async -> Ending {
        await withCheckedContinuation { continuation in
            let ending = state.withLock { state -> Ending? in
                if let ending = state.ending { return ending }
                state.waiting.append(continuation)
                return nil
            }
            if let ending { continuation.resume(returning: ending) }
        }
    }
}
