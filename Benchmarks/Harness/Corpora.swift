import BenchmarkCorpus
import FoodModel
import Foundation

/// Generated corpora live under `Benchmarks/.corpus/` (git-ignored) and are reused by later
/// runs: a folder counts as complete only once its `.complete` marker exists, so a generation
/// that was interrupted is redone rather than benchmarked half-written.
enum Corpora {
    static func menus(days: Int, settings: Settings, source: () throws -> SourceMenus) throws -> URL {
        guard let firstDate = settings.firstDate else { throw BenchError("bad first date") }
        let folder = settings.corpus.appendingPathComponent("menus-\(firstDate)-\(days)d")
        let marker = folder.appendingPathComponent(".complete")
        guard !FileManager.default.fileExists(atPath: marker.path) else { return folder }
        try? FileManager.default.removeItem(at: folder)
        log("generating \(days) days of menu pages into \(folder.path)")
        let summary = try MenuCorpus.write(try source(), into: folder, firstDate: firstDate, days: days)
        try JSONEncoder().encode(summary).write(to: marker)
        return folder
    }

    static func recipes(count: Int, settings: Settings) throws -> URL {
        let file = settings.corpus.appendingPathComponent("recipes-\(count).json")
        let marker = settings.corpus.appendingPathComponent("recipes-\(count).complete")
        guard !FileManager.default.fileExists(atPath: marker.path) else { return file }
        try FileManager.default.createDirectory(at: settings.corpus, withIntermediateDirectories: true)
        log("generating \(count) recipes into \(file.path)")
        let bytes = try RecipeDump.write(realDump: settings.meals, count: count, to: file)
        try Data("\(bytes)\n".utf8).write(to: marker)
        return file
    }
}

func log(_ message: String) {
    FileHandle.standardError.write(Data("commissary-bench: \(message)\n".utf8))
}

extension Corpora {
    /// Runs `body` while the menu page of `date` in `corpus` lacks its last menu item (a day
    /// whose menu changed since the last run), then puts the page back as it was.
    static func withOneItemRemoved<T>(from corpus: URL, on date: ServiceDate, _ body: () throws -> T) throws -> T {
        let page = corpus.appendingPathComponent("Menus/\(date).html")
        let original = try String(contentsOf: page, encoding: .utf8)
        guard let start = original.range(of: "<li class=\"menu-item\">", options: .backwards),
              let end = original.range(of: "</li>", range: start.upperBound..<original.endIndex)
        else { throw BenchError("no menu item on \(page.path)") }
        var changed = original
        changed.removeSubrange(start.lowerBound..<end.upperBound)
        try Data(changed.utf8).write(to: page)
        defer { try? Data(original.utf8).write(to: page) }
        return try body()
    }

    /// Reads every file of a corpus once, so that the run and its floors (measured after it,
    /// on the same files) both read from the page cache: otherwise the first scenario alone
    /// pays for the disk, and its ratio says more about the disk than about the code.
    static func warm(_ corpus: URL) throws {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: corpus.path, isDirectory: &isFolder) else { return }
        guard isFolder.boolValue else {
            _ = try Data(contentsOf: corpus)
            return
        }
        let files = FileManager.default.enumerator(at: corpus, includingPropertiesForKeys: [.isRegularFileKey])
        while let file = files?.nextObject() as? URL {
            guard try file.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile == true else { continue }
            _ = try Data(contentsOf: file)
        }
    }
}
