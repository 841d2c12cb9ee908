import Basics
import Foundation
import Snapshot

/// Writes a snapshot's open feeds into a folder: per restaurant `<slug>.xml` (OpenMensa),
/// `<slug>.ics` (iCalendar) and `<slug>/<date>.json`, with `index.json`.
///
/// The set is built whole in a hidden folder beside the target and renamed into place, so a
/// reader finds the old set or the new one, never half of one. A folder already there is
/// replaced only when it is a feed folder itself (it has an `index.json`).
public enum FeedWriter {
    /// What was written.
    public struct Written: Hashable, Sendable {
        public var folder: URL
        public var restaurants: Int
        public var files: Int
    }

    public static func write(_ snapshot: URL, to folder: URL, now: Date = Date()) throws -> Written {
        let set = try FeedSet.read(snapshot)
        let files = try render(set, stamp: CalendarStamp.of(set.facts.builtAt) ?? CalendarStamp.of(now))
        let parent = folder.deletingLastPathComponent()
        let partial = parent.appendingPathComponent(".\(folder.lastPathComponent).partial")
        try refuseForeignFolder(folder)
        do {
            try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
            try? FileManager.default.removeItem(at: partial)
            try write(files, into: partial)
            try swap(partial, into: folder)
        } catch {
            try? FileManager.default.removeItem(at: partial)
            throw (error as? Failure) ?? Failure.fileSystem("cannot write the feeds: \(SystemMessage.describe(error))",
                                                            path: folder.path, cause: error)
        }
        return Written(folder: folder, restaurants: set.restaurants.count, files: files.count)
    }

    /// Every file of the set, by its path in the folder.
    static func render(_ set: FeedSet, stamp: String) throws -> [String: Data] {
        var files: [String: Data] = [:]
        let encoder = JSONFeed.encoder()
        for feed in set.restaurants {
            files["\(feed.slug).xml"] = Data(OpenMensaFeed.document(feed, foods: set.foods).utf8)
            files["\(feed.slug).ics"] = Data(CalendarFeed.document(feed, foods: set.foods, pipeline: set.facts.pipeline,
                                                                   stamp: stamp).utf8)
            for day in feed.days {
                files["\(feed.slug)/\(day.date).json"] = try encoder.encode(JSONFeed.day(day, of: feed, foods: set.foods))
            }
        }
        files["index.json"] = try encoder.encode(FeedIndex(set))
        return files
    }

    private static func write(_ files: [String: Data], into folder: URL) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        var folders: Set<String> = [folder.path]
        for (path, data) in files.sorted(by: { $0.key < $1.key }) {
            let file = folder.appendingPathComponent(path)
            let parent = file.deletingLastPathComponent().path
            if folders.insert(parent).inserted {
                try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
            }
            try Durability.writeNewFile(data, to: file.path)
        }
        for path in folders { try Durability.sync(path: path) }
    }

    /// A target that exists and is not a feed folder is someone else's: never replaced.
    private static func refuseForeignFolder(_ folder: URL) throws {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder) else { return }
        let index = folder.appendingPathComponent("index.json").path
        guard isFolder.boolValue, FileManager.default.fileExists(atPath: index) else {
            throw Failure(.badInput, "is not a feed folder (it has no index.json), and is left alone: "
                          + "give --out a new folder, or one an earlier `commissary feeds` wrote", at: folder.path)
        }
    }

    /// `partial` renamed to `folder`; an earlier set there is renamed aside first and removed
    /// after, so a reader sees one set or the other (and, for an instant, none).
    private static func swap(_ partial: URL, into folder: URL) throws {
        let parent = folder.deletingLastPathComponent()
        let old = parent.appendingPathComponent(".\(folder.lastPathComponent).old")
        try? FileManager.default.removeItem(at: old)
        let replacing = FileManager.default.fileExists(atPath: folder.path)
        if replacing { try Durability.rename(from: folder.path, to: old.path) }
        try Durability.rename(from: partial.path, to: folder.path)
        try Durability.sync(path: parent.path)
        if replacing { try? FileManager.default.removeItem(at: old) }
    }
}

/// DTSTAMP's form, `yyyyMMddTHHmmssZ`, in UTC.
enum CalendarStamp {
    /// From an ISO 8601 UTC timestamp (`2026-11-24T17:25:19Z`, fractions allowed); nil otherwise.
    static func of(_ timestamp: String) -> String? {
        let digits = timestamp.prefix(19).filter(\.isNumber)
        guard digits.count == 14, timestamp.hasSuffix("Z") else { return nil }
        return "\(digits.prefix(8))T\(digits.suffix(6))Z"
    }

    static func of(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        return String(format: "%04d%02d%02dT%02d%02d%02dZ", parts.year ?? 1970, parts.month ?? 1, parts.day ?? 1,
                      parts.hour ?? 0, parts.minute ?? 0, parts.second ?? 0)
    }
}
