import Basics
import Crypto
import FoodModel
import Foundation
import Snapshot
import SourceAdapters
#if canImport(Glibc)
import Glibc
#endif

/// What partitions parsed, kept between runs under a key made of everything the parse and its
/// preparation are a function of: the code (its build ID), the source's definition, the partition,
/// the documents it read (url, status, sha256, declared charset) and what normalizing its names
/// depends on (`PreparedDays.inputs`). A partition whose documents are the ones it read last time is taken
/// from here instead of being read from the raw store and parsed again, so a night in which one
/// day changed parses one day.
///
/// A partition is kept as it was prepared (`PreparedDays`): normalized, each day with its rows'
/// digest, its share of the menus' digest and its outline. A night takes a cached day from those
/// and decodes the day itself only to write it, which on a night with one day changed it does
/// for that day alone.
///
/// One file per entry, `<key>.entry`: a line with the sha256 of the entry's head and the head's
/// length, the head, then each day's own bytes. The head holds the values in binary (writing
/// JSON entries cost a full run a fifth more CPU), each part in a fixed-order form of its own:
/// the days (`MenuDigestDayBytes`, the outline in `ServiceDayBytes`, and the length and sha256
/// of the day's bytes), the foods (`FoodBytes`), the summary (`PartitionSummaryBytes`) and
/// everything else (`ParseCacheRest`). A day's bytes (`ServiceDayBytes`, three fifths of an
/// entry) are read only when the day is written, which a night with one day changed does for
/// none of its cached days: they are checked against their sha256 then (`DayToWrite.checked`),
/// not on every read. An entry cut short or damaged on disk (entries are not fsynced: losing
/// one costs a parse, nothing more) is found, removed and parsed again, never used: its head
/// when read, a day's bytes before the day is written (`Harvest`). Nothing here fails a run.
///
/// Entries are written by a thread of their own: a file write can wait on the disk (a journal
/// commit), and one that waits on a thread that parses leaves that core idle (a year's cold run
/// took 4% longer with the writes there). Parsing threads encode the entry and hand it over; at
/// most `pendingWrites` wait, so a slow disk holds up the parse rather than filling memory.
///
/// Food documents' parses are kept here too (`ParsedFoods`), one entry each, under keys of their
/// own: a day whose menu changed reads its foods' documents again, but parses only those whose
/// bytes changed.
final class ParseCache: ParsedFoods {
    let folder: URL
    private let writes = DispatchQueue(label: "commissary.parse-cache.writes")
    private let pending = DispatchSemaphore(value: ParseCache.pendingWrites)

    static let pendingWrites = 16

    /// A partition's parse as it was accepted and prepared, with the URLs it asked to have
    /// revalidated: its days are the prepared ones, `result` holds the rest.
    struct Entry: Sendable {
        var result: PartitionResult
        var revalidate: [String]
        var prepared: PreparedDays
        /// The figures the partition was judged by (`PartitionSummary`), counted on its days as
        /// the adapter read them, before they were prepared.
        var summary: PartitionSummary
    }

    /// Entries that no run has used for this many days are removed; a shorter wait would drop
    /// a whole window's entries after a repair run of one date (`run --date D`) or an outage of
    /// a few nights.
    static let unusedDaysKept = 7.0

    /// `folder`'s path and a slash: an entry is looked up by path hundreds of times a night, and
    /// appending to a `URL` cost more than checking the entry's digest.
    private let folderPrefix: String

    /// Where entries are written before they are renamed into `folder`: a folder of their own,
    /// so that a run clears what killed runs left there without listing every entry.
    let partialFolder: URL

    init(folder: URL) {
        self.folder = folder
        folderPrefix = folder.path.hasSuffix("/") ? folder.path : folder.path + "/"
        partialFolder = folder.appendingPathComponent("partial", isDirectory: true)
    }

    /// The key of `partition` of `source` built from `documents`. `runPartitions` are the run's
    /// partitions of the source when the parse may depend on them (`PartitionWork.parseCacheKey`).
    /// `source`: the source's line (`sourceLine`); `preparedBy`: what normalizing it depends on
    /// (`PreparedDays.inputs`).
    static func key(source: String, partition: String, runPartitions: [String], documents: [SourceDocument],
                    preparedBy preparation: String) -> String {
        var lines = [
            "parse-cache 8",
            "code \(CommissaryVersion.build)",
            source,
            "partition \(partition)",
            "prepared \(preparation)",
        ]
        if !runPartitions.isEmpty { lines.append("run \(runPartitions.joined(separator: " "))") }
        lines += documents.map { "document \($0.url) \($0.status) \($0.sha256)\(InputFingerprint.charset($0))" }
        return sha256Hex(Data(lines.joined(separator: "\n").utf8))
    }

    /// The line of a key that names the source: its definition, settings and all. The same for
    /// every partition of the source, so a run makes it once per source (describing the settings
    /// for each partition was a hundredth of a night with one day changed).
    static func sourceLine(_ source: SourceSpec) -> String {
        "source \(source.name) \(source.adapter.name) \(source.location) \(String(reflecting: source.settings))"
    }

    /// The entry under `key`, or nil when there is none or its head cannot be trusted (then
    /// it is removed). A hit marks the entry used (`read`). Its days' bytes are not checked.
    func entry(_ key: String) -> Entry? {
        guard let (head, days) = read(key) else { return nil }
        guard let entry = try? Self.decode(head, days: days) else {
            remove(key)
            return nil
        }
        return entry
    }

    /// Removes the entry under `key`: one whose day's bytes were found damaged.
    func remove(_ key: String) {
        unlink(path(key))
    }

    /// The bytes stored under `key` (`keep`) when they match the digest written before them,
    /// else nil (and a damaged file is removed). A hit marks the entry used (`read`).
    func parsed(_ key: String) -> Data? {
        guard let (head, rest) = read(key) else { return nil }
        guard rest.count == 0 else {
            remove(key)
            return nil
        }
        return head
    }

    /// The head of the file under `key`, checked against the digest on its first line, and
    /// where the bytes after it lie, unread; nil when there is no such file or its head does not
    /// match (then it is removed). Only the line and the head are read: the days' bytes after
    /// them, three fifths of a day's entry, are read when a day is written (`DayToWrite.checked`).
    private func read(_ key: String) -> (head: Data, rest: FileSpan)? {
        let file = path(key)
        // Non-blocking, and used only when it is a regular file: a named pipe in an entry's
        // place would otherwise hold the run until something wrote to it.
        let descriptor = open(file, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, RegularFile.kind(of: status.st_mode) == nil,
              case let size = Int(status.st_size),
              let first = try? RegularFile.bytes(in: descriptor, count: min(size, Self.firstLineBytes), at: 0),
              let newline = first.firstIndex(of: UInt8(ascii: "\n")),
              let line = String(data: first[..<newline], encoding: .utf8),
              case let fields = line.split(separator: " "), fields.count == 2,
              let length = Int(fields[1]), length >= 0, case let start = newline + 1, length <= size - start,
              let head = try? RegularFile.bytes(in: descriptor, count: length, at: start),
              lowercaseHex(SHA256.hash(data: head)) == fields[0]
        else {
            remove(key)
            return nil
        }
        // Its modification time is when a run last used it (`sweep`), set to now when it is
        // `usedMarkAge` old: marked every night, each of a night's thousand entries rewrote its
        // inode for the journal to write back.
        if Date().timeIntervalSince1970 - Self.seconds(status.st_mtim) >= Self.usedMarkAge { futimens(descriptor, nil) }
        return (head, FileSpan(path: file, offset: start + length, count: size - start - length))
    }

    /// The most an entry's first line can take: a sha256 in hex, a space, a length, a newline.
    private static let firstLineBytes = 64 + 1 + 20 + 1

    /// How old an entry's mark of use may be before a run that uses it sets it again, in
    /// seconds: half the days an unused entry is kept. A mark is that much older than the last
    /// use at most, which the sweep allows for.
    private static let usedMarkAge = unusedDaysKept / 2 * 86_400

    /// Stores `entry` under `key`, as `keep` does.
    func store(_ entry: Entry, key: String) {
        guard let (head, days) = try? Self.encode(entry) else { return }
        write(head: head, rest: days, under: key)
    }

    /// Stores `body` under `key` (a temporary file renamed into place, so a reader never sees
    /// half of one), on the writing thread; `flush` waits for it. A failure (a full disk) is
    /// ignored: the next run parses again.
    func keep(_ body: Data, under key: String) {
        write(head: body, rest: Data(), under: key)
    }

    /// Writes the line naming `head`'s sha256 and length, `head`, then `rest`, as `keep` says.
    private func write(head: Data, rest: Data, under key: String) {
        let bytes = Data("\(sha256Hex(head)) \(head.count)\n".utf8) + head + rest
        let temporary = partialFolder.appendingPathComponent("\(key).\(UUID().uuidString).tmp")
        let target = path(key)
        pending.wait()
        writes.async { [partialFolder, pending] in
            defer { pending.signal() }
            do {
                try FileManager.default.createDirectory(at: partialFolder, withIntermediateDirectories: true)
                try Durability.writeNewFile(bytes, to: temporary.path, synced: false)
                try Durability.rename(from: temporary.path, to: target)
            } catch {
                try? FileManager.default.removeItem(at: temporary)
            }
        }
    }

    /// Returns once every entry handed to `store` is written (or given up).
    func flush() {
        writes.sync {}
    }

    /// Removes temporary files of runs that were killed, and entries unused for
    /// `unusedDaysKept` days. Called under the pipeline's lock. Read with `readdir` and
    /// `fstatat`: a night's cache holds a thousand entries and more, and Foundation's listing
    /// with a resource value per file cost 50 µs each, a twentieth of a night.
    ///
    /// Temporary files go on every run, from `partialFolder` alone. Entries are looked at once
    /// a day at most: they are kept for days, and after an upgrade the old build's stay a week
    /// beside the new one's, so that a `fstatat` of each (7,500 on three years) cost 23 ms of
    /// every night, and listing them all to find temporary files among them 15 ms (17,500
    /// entries). The last time they were looked at is the modification time of `swept` in the
    /// folder; that sweep also removes temporary files that builds before `partialFolder` left
    /// among the entries.
    func sweep(now: Date = Date()) {
        Self.removeAll(in: partialFolder)
        guard let listing = opendir(folder.path) else { return }
        defer { closedir(listing) }
        let descriptor = dirfd(listing)
        guard Self.entriesDue(in: descriptor, now: now) else { return }
        // An entry marked that long ago has not been used for `unusedDaysKept` days.
        let oldest = now.timeIntervalSince1970 - Self.unusedDaysKept * 86_400 - Self.usedMarkAge
        while let entry = readdir(listing) {
            let name = Self.name(of: entry)
            if name.hasSuffix(".tmp") {
                unlinkat(descriptor, name, 0)
                continue
            }
            guard name.hasSuffix(".entry") else { continue }
            var status = stat()
            guard fstatat(descriptor, name, &status, AT_SYMLINK_NOFOLLOW) == 0 else { continue }
            if Self.seconds(status.st_mtim) < oldest { unlinkat(descriptor, name, 0) }
        }
        Self.markSwept(in: descriptor, now: now)
    }

    /// Removes every file in `folder` (the temporary files of writes a kill interrupted).
    private static func removeAll(in folder: URL) {
        guard let listing = opendir(folder.path) else { return }
        defer { closedir(listing) }
        let descriptor = dirfd(listing)
        while let entry = readdir(listing) {
            let name = Self.name(of: entry)
            if name != ".", name != ".." { unlinkat(descriptor, name, 0) }
        }
    }

    /// The file whose modification time says when entries were last looked at.
    private static let sweptMark = "swept"

    /// Whether entries were last looked at a day or more before `now` (or never, or after it:
    /// a clock set back).
    private static func entriesDue(in folder: Int32, now: Date) -> Bool {
        var status = stat()
        guard fstatat(folder, sweptMark, &status, AT_SYMLINK_NOFOLLOW) == 0 else { return true }
        let since = now.timeIntervalSince1970 - seconds(status.st_mtim)
        return since >= 86_400 || since < 0
    }

    /// Records `now` as the last time entries were looked at; one that cannot be recorded only
    /// means looking again next run.
    private static func markSwept(in folder: Int32, now: Date) {
        let mark = openat(folder, sweptMark, O_WRONLY | O_CREAT | O_CLOEXEC, 0o644)
        guard mark >= 0 else { return }
        defer { close(mark) }
        let whole = now.timeIntervalSince1970.rounded(.down)
        let time = timespec(tv_sec: Int(whole), tv_nsec: Int((now.timeIntervalSince1970 - whole) * 1e9))
        var times = [time, time]
        futimens(mark, &times)
    }

    private static func seconds(_ time: timespec) -> Double {
        Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// A directory entry's name, read up to its terminating zero where `readdir` left it. The
    /// record is only as long as its name (`d_reclen`), so copying the whole `dirent` (as
    /// `entry.pointee` does) reads past the last record of the buffer, which crashed a sweep
    /// when that record ended at the end of a mapped page.
    private static func name(of entry: UnsafeMutablePointer<dirent>) -> String {
        guard let offset = MemoryLayout<dirent>.offset(of: \dirent.d_name) else { return "" }
        return String(cString: (UnsafeRawPointer(entry) + offset).assumingMemoryBound(to: CChar.self))
    }

    /// An entry's head, and its days' bytes laid end to end: in the head, its days and its
    /// foods apart from the rest, each in its own form; a day as its rows' digest, its share of
    /// the menus' digest, its outline, and the length and sha256 of its bytes.
    private static func encode(_ entry: Entry) throws -> (head: Data, days: Data) {
        var result = entry.result
        result.dataset.serviceDays = []
        result.dataset.foods = [:]
        let prepared = entry.prepared
        var output = FieldWriter()
        output.put(try ParseCacheRest(
            result: result, revalidate: entry.revalidate,
            unknownRestaurants: prepared.unknownRestaurants, longNames: prepared.longNames, warnings: prepared.warnings
        ).encoded())
        let dayBytes = try prepared.days.map { try $0.rows.bytes() }
        var days = Data()
        output.put(FieldWriter.list(Array(zip(prepared.days, dayBytes))) { output, pair in
            let (day, bytes) = pair
            days += bytes
            output.put(day.rows.contentDigest)
            output.put(MenuDigestDayBytes.encode(day.menus))
            output.put(ServiceDayBytes.encode([day.rows.outline.outline]))
            output.put(bytes.count)
            output.put(sha256Hex(bytes))
        })
        output.put(FoodBytes.encode(entry.result.dataset.foods.values.sorted { $0.id < $1.id }))
        output.put(PartitionSummaryBytes.encode(entry.summary))
        return (Data(output.bytes), days)
    }

    /// The entry whose head is `data`, its days' bytes taken in turn from `days`, unread;
    /// `Failure.damagedBytes` when the head's lengths do not cover `days` exactly.
    private static func decode(_ data: Data, days dayBytes: FileSpan) throws -> Entry {
        let (rest, days, foods, summary) = try data.withUnsafeBytes { buffer in
            var input = FieldReader(buffer)
            let parts = (try input.data(), try input.data(), try input.data(), try input.data())
            guard input.isAtEnd else { throw Failure.damagedBytes }
            return parts
        }
        let kept = try ParseCacheRest(decoding: rest)
        var result = kept.result
        let decodedFoods = try FoodBytes.decode(foods)
        result.dataset.foods = Dictionary(decodedFoods.map { ($0.id, $0) }) { first, _ in first }
        guard result.dataset.foods.count == decodedFoods.count else { throw Failure.damagedBytes }
        var next = dayBytes.offset
        let end = dayBytes.offset + dayBytes.count
        let prepared = try FieldReader.list(days) { input in
            let digest = try input.string()
            let menus = try MenuDigestDayBytes.decode(input.data())
            let outlines = try ServiceDayBytes.decode(input.data())
            guard outlines.count == 1, let outline = outlines.first, outline.date == menus.date else {
                throw Failure.damagedBytes
            }
            let length = try input.int()
            guard length >= 0, length <= end - next else { throw Failure.damagedBytes }
            let bytes = FileSpan(path: dayBytes.path, offset: next, count: length)
            next += length
            return PreparedDays.Day(rows: DayToWrite(keptAt: bytes, outline: outline, contentDigest: digest,
                                                     bytesSHA256: try input.string()),
                                    menus: menus)
        }
        guard next == end else { throw Failure.damagedBytes }
        return Entry(result: result, revalidate: kept.revalidate,
                     prepared: PreparedDays(days: prepared, unknownRestaurants: kept.unknownRestaurants,
                                            longNames: kept.longNames, warnings: kept.warnings),
                     summary: try PartitionSummaryBytes.decode(summary))
    }

    private func path(_ key: String) -> String {
        folderPrefix + key + ".entry"
    }
}
