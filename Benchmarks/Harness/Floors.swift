import Basics
import Foundation
import GRDB
import HTML
import Pipeline

/// The hardware floors a stage is compared with, each on the same inputs as the run it
/// judges, in its own child process, on one thread: the least work any implementation of that
/// stage has to do with these libraries.
enum Floors {
    /// libxml2 parsing every document the run read, with no XPath and no extraction. Reading
    /// the bytes from disk is timed apart (it is the floor of the fetch stage on a folder).
    static func parse(manifest: URL) throws -> Measurement {
        let inputs = try UserJSON.decoder().decode(RunManifest.self, from: Data(contentsOf: manifest)).inputs
        var readSeconds = 0.0
        var parseSeconds = 0.0
        var bytes = 0
        for input in inputs {
            // The directory source serves `/Menus/2017-01-01` from `Menus/2017-01-01.html`.
            let path = String(input.url.dropFirst("file://".count))
            let file = FileManager.default.fileExists(atPath: path) ? path : path + ".html"
            var started = now()
            let data = try Data(contentsOf: URL(fileURLWithPath: file))
            readSeconds += now() - started
            started = now()
            let document = try HTMLDocument(parsing: data, location: input.url)
            parseSeconds += now() - started
            withExtendedLifetime(document) {}
            bytes += data.count
        }
        return Measurement(seconds: parseSeconds, cpuSeconds: ProcessResources.cpuSeconds(),
                           peakKB: ProcessResources.peakResidentKB() ?? 0, documents: inputs.count, bytes: bytes,
                           readSeconds: readSeconds)
    }

    /// Foundation's JSON parser reading the dump into untyped values: the floor of decoding.
    static func json(dump: URL) throws -> Measurement {
        var started = now()
        let data = try Data(contentsOf: dump)
        let readSeconds = now() - started
        started = now()
        let object = try JSONSerialization.jsonObject(with: data)
        let seconds = now() - started
        withExtendedLifetime(object) {}
        return Measurement(seconds: seconds, cpuSeconds: ProcessResources.cpuSeconds(),
                           peakKB: ProcessResources.peakResidentKB() ?? 0, documents: 1, bytes: data.count,
                           readSeconds: readSeconds)
    }

    /// SQLite inserting `rows` rows into one table with one prepared statement in one
    /// transaction, into a file, committed: the floor of the write stage. Rows have the shape
    /// of the run's most numerous table (`menu_item`: four integers and two short texts).
    static func insert(rows: Int, into folder: URL) throws -> Measurement {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("insert-floor.sqlite")
        try? FileManager.default.removeItem(at: file)
        let database = try DatabaseQueue(path: file.path)
        try database.write { db in
            try db.execute(sql: "CREATE TABLE row (id INTEGER PRIMARY KEY, a INTEGER, b INTEGER, c INTEGER, name TEXT, portion TEXT)")
        }
        let started = now()
        try database.write { db in
            let statement = try db.makeStatement(sql: "INSERT INTO row VALUES (?, ?, ?, ?, ?, ?)")
            for index in 0..<rows {
                statement.setUncheckedArguments([index + 1, index % 1_000, index % 97, index % 2_122,
                                                 "Menu item name \(index % 2_122)", "1"])
                try statement.execute()
            }
        }
        let seconds = now() - started
        try database.close()
        return Measurement(seconds: seconds, cpuSeconds: ProcessResources.cpuSeconds(),
                           peakKB: ProcessResources.peakResidentKB() ?? 0, rows: rows)
    }

    /// Copying the published snapshot's bytes to a new file and fsyncing it: the floor of
    /// publishing (which also compacts, verifies and renames).
    static func copy(file: URL, into folder: URL) throws -> Measurement {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let target = folder.appendingPathComponent("copy-floor.sqlite")
        try? FileManager.default.removeItem(at: target)
        let started = now()
        let data = try Data(contentsOf: file)
        _ = FileManager.default.createFile(atPath: target.path, contents: nil)
        let handle = try FileHandle(forWritingTo: target)
        try handle.write(contentsOf: data)
        try handle.synchronize()
        try handle.close()
        let seconds = now() - started
        return Measurement(seconds: seconds, cpuSeconds: ProcessResources.cpuSeconds(),
                           peakKB: ProcessResources.peakResidentKB() ?? 0, bytes: data.count)
    }
}
