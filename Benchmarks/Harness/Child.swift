import Basics
import FoodModel
import Foundation
import Snapshot

/// The child side: `commissary-bench child <kind> key=value ...` measures one thing and prints
/// one JSON `Measurement` line. Each scenario runs in its own process so that its peak
/// resident memory is its own, not the largest of everything measured before it.
enum Child {
    static func run(_ arguments: [String]) async throws {
        // The process settings `commissary run` makes, for the runs and their floors alike.
        guard SQLiteProcess.disableMemoryStatistics() else {
            throw BenchError("child: SQLite was initialized before its memory statistics could be turned off")
        }
        ProcessMemory.applyRunSettings()
        guard let kind = arguments.first else { throw BenchError("child: which measurement?") }
        var values: [String: String] = [:]
        for argument in arguments.dropFirst() {
            guard let equals = argument.firstIndex(of: "=") else {
                throw BenchError("child: argument \(argument) is not key=value")
            }
            values[String(argument[..<equals])] = String(argument[argument.index(after: equals)...])
        }
        func value(_ key: String) throws -> String {
            guard let value = values[key] else { throw BenchError("child \(kind): missing \(key)=") }
            return value
        }
        func url(_ key: String) throws -> URL { URL(fileURLWithPath: try value(key)) }
        func int(_ key: String) throws -> Int {
            guard let number = Int(try value(key)) else { throw BenchError("child \(kind): \(key) is not a number") }
            return number
        }

        let measurement: Measurement
        switch kind {
        case "menus":
            guard let from = ServiceDate(try value("from")) else { throw BenchError("child: bad from=") }
            measurement = try await PipelineScenario.menus(
                corpus: try url("corpus"), from: from, days: try int("days"), workspace: try url("workspace"),
                repository: try url("repository"), postgres: try PostgresBench.target(values["postgres"] ?? "none"))
        case "recipes":
            measurement = try await PipelineScenario.recipes(
                dump: try url("dump"), workspace: try url("workspace"), repository: try url("repository"))
        case "live-night":
            guard let night = ServiceDate(try value("night")) else { throw BenchError("child: bad night=") }
            measurement = try await PipelineScenario.liveNight(pipeline: try url("pipeline"), night: night,
                                                               workspace: try url("workspace"))
        case "fetch-alone":
            measurement = try await FetchAlone.measure(manifest: try url("manifest"), corpus: try url("corpus"),
                                                       days: try int("days"), scratch: try url("scratch"))
        case "floor-curl":
            measurement = try CurlFloor.fetch(urls: try url("urls"))
        case "floor-parse":
            measurement = try Floors.parse(manifest: try url("manifest"))
        case "floor-json":
            measurement = try Floors.json(dump: try url("dump"))
        case "floor-insert":
            measurement = try Floors.insert(rows: try int("rows"), into: try url("scratch"))
        case "floor-copy":
            measurement = try Floors.copy(file: try url("file"), into: try url("scratch"))
        default:
            throw BenchError("child: unknown measurement \(kind)")
        }
        let line = try JSONEncoder().encode(measurement)
        FileHandle.standardOutput.write(line + Data("\n".utf8))
    }

    /// Runs this same executable as a child and decodes its one line.
    static func measure(_ kind: String, _ values: [String: String]) throws -> Measurement {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        process.arguments = ["child", kind] + values.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw BenchError("child \(kind) exited with status \(process.terminationStatus)")
        }
        do {
            return try JSONDecoder().decode(Measurement.self, from: data)
        } catch {
            throw BenchError("child \(kind) printed no measurement: \(String(decoding: data, as: UTF8.self).prefix(200))")
        }
    }
}
