import Basics
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Serves URLs from a folder: the path of the URL (host and scheme dropped) names a file.
///
/// `/Menus/2026-10-12` is looked up as `Menus/2026-10-12`, then with `.html` and `.json`
/// appended, then as `Menus/2026-10-12/index.html`. A query string becomes part of the file
/// name (`search.php?f=a` → `search.php@f=a.json`), so an API replays from files too.
/// Paths that climb out of the folder (`..`) are refused, and so is a file that a symbolic link
/// resolves to outside the folders the source may read (`confinedTo`). Only regular files are
/// read: a named pipe or a device is opened without waiting and refused. A document read whole
/// is capped as a web response is (`maxBodyBytes`); one streamed is not, being held one piece at
/// a time.
public struct DirectorySource: DocumentSource {
    public let root: URL
    /// `root`'s path, ending in "/".
    private let rootPath: String
    /// The folders, symbolic links resolved, that every file read must lie in.
    public let confinement: [String]
    /// The same folders held open, for the short way to a file under one.
    private let confinedFolders: ConfinedFolders
    /// What stamps `fetchedAt`.
    private let clock: RunClock
    /// The most bytes `fetch` reads of one file: a larger one is refused, read no further than
    /// one byte past this (a 2 GB file was read whole, into 4.7 GB of memory).
    public let maxBodyBytes: Int

    public init(root: URL, confinedTo folders: [URL]? = nil, clock: RunClock = .system,
                maxBodyBytes: Int = FetchDefaults.maxResponseBytes) {
        self.root = root.standardizedFileURL
        self.maxBodyBytes = maxBodyBytes
        rootPath = self.root.path.hasSuffix("/") ? self.root.path : self.root.path + "/"
        self.clock = clock
        confinement = (folders ?? [root]).map { folder in
            let path = folder.standardizedFileURL.resolvingSymlinksInPath().path
            return path.hasSuffix("/") ? path : path + "/"
        }
        confinedFolders = ConfinedFolders(confinement)
    }

    public func fetch(_ url: String) async throws -> FetchedDocument {
        let file = try openFile(for: url)
        defer { close(file.descriptor) }
        let body: Data?
        do {
            // The size `fstat` gave refuses most files at once; the read stops one byte past the
            // cap whatever the file grew to since.
            body = file.stamp.size > maxBodyBytes ? nil
                : try RegularFile.readBounded(file.descriptor, size: file.stamp.size, limit: maxBodyBytes)
        } catch let error as POSIXError {
            throw Self.unreadable(file.path, errorNumber: error.code.rawValue, url: url)
        }
        guard let body else {
            throw Failure(.tooLarge, "\(file.path) holds more than \(maxBodyBytes) bytes, the cap on a document "
                          + "(fetch.max_response_bytes, as for a web response); it is not read", at: url)
        }
        return FetchedDocument(url: url, status: 200, headers: Self.headers(file.stamp), body: body, charset: nil,
                               fetchedAt: clock.now())
    }

    /// The entity tag `fetch` would give the file that serves `url` now (`FileStamp`), from its
    /// metadata alone: equal to a stored record's, the file holds the bytes that record names.
    public func entityTag(of url: String) throws -> String? {
        let file = try openFile(for: url)
        defer { close(file.descriptor) }
        return file.stamp.entityTag
    }

    /// Reads the file in pieces, hashing them as they pass, so that a file of any size is read
    /// in the memory of one piece: not capped (a TheMealDB dump of a million recipes is read so).
    public func stream(_ url: String, into consume: (Data) throws -> Void) async throws -> FetchRecord {
        let file = try openFile(for: url)
        defer { close(file.descriptor) }
        let fetchedAt = clock.now()
        var digest = SHA256Stream()
        while true {
            var piece = Data(count: documentPieceBytes)
            let count = piece.withUnsafeMutableBytes { buffer in
                read(file.descriptor, buffer.baseAddress, buffer.count)
            }
            if count < 0 {
                if errno == EINTR { continue }
                throw Self.unreadable(file.path, errorNumber: errno, url: url)
            }
            if count == 0 { break }
            piece.count = count
            digest.update(piece)
            try consume(piece)
        }
        return FetchRecord(url: url, status: 200, headers: Self.headers(file.stamp), charset: nil, sha256: digest.hex,
                           size: digest.byteCount, fetchedAt: fetchedAt)
    }

    /// A read's response headers: the file's stamp as its entity tag, when the file had been
    /// still long enough for the stamp to stand for the bytes read (`FileStamp`).
    private static func headers(_ stamp: FileStamp) -> [String: String] {
        guard stamp.isSettled(at: FileStamp.now) else { return [:] }
        return ["etag": stamp.entityTag]
    }

    /// The file that serves `url`, open, with its stamp (its size among it), taken by the `fstat`
    /// that found it a regular file, before anything is read: a write during the read gives the
    /// file a stamp other than this one. The first of the names tried that is a
    /// regular file lying in the source's folders. The short way (`ConfinedFolders`) opens a
    /// name under a folder in one call that refuses any link; where it cannot say, the long way
    /// decides.
    private func openFile(for url: String) throws -> (descriptor: Int32, path: String, stamp: FileStamp) {
        let base = rootPath + (try Self.relativePath(of: url))
        let suffixes = ["", ".html", ".json", "/index.html"]
        if let folder = confinedFolders.folder(of: base) {
            shortWay: for suffix in suffixes {
                switch confinedFolders.openFile(folder.rest + suffix, under: folder.descriptor) {
                case .file(let descriptor, let status): return (descriptor, base + suffix, FileStamp(status))
                case .absent: continue
                case .undecided: break shortWay
                }
            }
            // Found nothing: the long way looks again, and says so, in its own words.
        }
        return try openFileTheLongWay(suffixes.map { base + $0 }, url: url)
    }

    /// Each name is opened at once, not looked at first (`stat`, then `realpath`, then the
    /// read's own `open` each walked the whole path), and the folders are checked against where
    /// the open file really is (`realPath(of:)`): a check of the path before or after the open
    /// would let a folder swapped for a link between the two lead out of the source's folders.
    /// A name that is there but is no regular file nor folder (a named pipe, a device) is passed
    /// over like a missing one; when no name serves, the first such is what the failure names.
    private func openFileTheLongWay(_ names: [String], url: String) throws -> (descriptor: Int32, path: String, stamp: FileStamp) {
        var unfit: (file: String, kind: String)?
        for file in names {
            // Non-blocking, so that a named pipe or a device opens at once and is then refused as
            // not a regular file, rather than holding the run until something writes to it.
            let descriptor = open(file, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
            guard descriptor >= 0 else {
                // A link that leads nowhere (or round in a loop) serves no page, like a missing name.
                if errno == ENOENT || errno == ENOTDIR || errno == ELOOP { continue }
                throw Self.unreadable(file, errorNumber: errno, url: url)
            }
            var status = stat()
            guard fstat(descriptor, &status) == 0 else {
                close(descriptor)
                continue
            }
            if let kind = RegularFile.kind(of: status.st_mode) {
                close(descriptor)
                // A folder is where `index.html` is looked for next: not worth naming.
                if unfit == nil, (status.st_mode & S_IFMT) != S_IFDIR { unfit = (file, kind) }
                continue
            }
            let resolved = Self.realPath(of: descriptor) ?? Self.resolve(file) ?? file
            guard confinement.contains(where: { resolved.hasPrefix($0) }) else {
                close(descriptor)
                throw Failure(.invalidURL, "\(file) leads to \(resolved), outside the source's folder, through a link; "
                              + "it is not read", at: url)
            }
            return (descriptor, file, FileStamp(status))
        }
        if let unfit {
            throw Failure(.badInput, "\(unfit.file) is \(unfit.kind), not a regular file; it is not read", at: url)
        }
        throw Failure(.notFound, "no file for this URL under \(root.path)", at: url)
    }

    /// Where an open file really is, every link resolved, as the kernel names it: one `readlink`
    /// of `/proc/self/fd/N`, against `realpath`'s walk of every folder above the file. Nil where
    /// the system has no `/proc` (the caller resolves the name then).
    private static func realPath(of descriptor: Int32) -> String? {
        #if os(Linux)
        let target = [UInt8](unsafeUninitializedCapacity: Int(PATH_MAX)) { buffer, count in
            count = 0
            guard let base = buffer.baseAddress else { return }
            let length = readlink("/proc/self/fd/\(descriptor)", base, buffer.count)
            // A name that fills the buffer may have been cut short.
            if length > 0, length < buffer.count { count = length }
        }
        return target.isEmpty ? nil : String(decoding: target, as: UTF8.self)
        #else
        return nil
        #endif
    }

    /// One `realpath` call; Foundation's URL resolution allocates far more per call.
    private static func resolve(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// A file of the folder that is there but cannot be opened or read: the machine's failure
    /// (`file_system`), not a site that could not be reached.
    private static func unreadable(_ file: String, errorNumber: Int32, url: String) -> Failure {
        Failure(.fileSystem, "cannot read \(file): \(String(cString: strerror(errorNumber))); check the file and "
                + "that the user running commissary may read it",
                at: url, cause: POSIXError(POSIXErrorCode(rawValue: errorNumber) ?? .EIO))
    }

    /// The file path a URL maps to, relative to the root; throws for traversal attempts. Read
    /// as bytes: every document read comes through here, and Foundation's and the standard
    /// library's string searches cost more than reading a small page.
    static func relativePath(of url: String) throws -> String {
        var rest = Array(url.utf8)[...]
        let slash = UInt8(ascii: "/")
        if let scheme = rest.indices.first(where: { rest[$0...].starts(with: "://".utf8) }) {
            rest = rest[(scheme + 3)...]
            rest = rest.firstIndex(of: slash).map { rest[$0...] } ?? []
        }
        if let hash = rest.firstIndex(of: UInt8(ascii: "#")) { rest = rest[..<hash] }
        var path = Array(rest)
        if let question = path.firstIndex(of: UInt8(ascii: "?")) { path[question] = UInt8(ascii: "@") }
        let components = path.split(separator: slash)
        guard !components.isEmpty else {
            throw Failure(.invalidURL, "the URL has no path to look up", at: url)
        }
        guard !components.contains(where: { $0.elementsEqual("..".utf8) || $0.elementsEqual(".".utf8) || $0.contains(0) })
        else {
            throw Failure(.invalidURL, "the path climbs out of the source folder", at: url)
        }
        return String(decoding: Array(components.joined(separator: [slash])), as: UTF8.self)
    }
}
