import Foundation

/// Another program a test runs to its end (a shell, readelf, systemd-analyze, Python): what it
/// wrote to standard output and error, together, and its exit status.
public enum ExternalProgram {
    public struct Outcome: Sendable {
        public var status: Int32
        public var output: String
    }

    public static func run(_ program: URL, _ arguments: [String], in folder: URL? = nil) throws -> Outcome {
        let process = Process()
        process.executableURL = program
        process.arguments = arguments
        if let folder { process.currentDirectoryURL = folder }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.runWithSignalsUnblocked()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Outcome(status: process.terminationStatus, output: String(decoding: data, as: UTF8.self))
    }
}
