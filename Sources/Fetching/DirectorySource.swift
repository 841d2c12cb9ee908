import Basics
import Foundation
import Synchronization
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
/// resolves to outside the folders the source may read (`confinedTo`).
public struct DirectorySource: DocumentSource {
    public let root: URL
    /// `root`'s path, ending in "/".
    private let rootPath: String
    /// The folders, symbolic links resolved, that every file read must lie in.
    public let confinement: [String]
    /// What stamps `fetchedAt`.
    private let clock: RunClock
    /// Folders whose real path was found, by path.
    private let realFolders = RealFolders()

    public init(root: URL, confinedTo folders: [URL]? = nil, clock: RunClock = .system) {
        self.root = root.standardizedFileURL
        rootPath = self.root.path.hasSuffix("/") ? self.root.path : self.root.path + "/"
        self.clock = clock
        confinement = (folders ?? [root]).map { folder in
            let path = folder.standardizedFileURL.resolvingSymlinksInPath().path
            return path.hasSuffix("/") ? path : path + "/"
        }
    }

    public func fetch(_ url: String) async throws -> FetchedDocument {
        let file = try self.file(for: url)
        let body: Data
        do {
            body = try Data(contentsOf: URL(fileURLWithPath: file))
        } catch {
            throw Failure(.transport, "cannot read \(file): \(SystemMessage.describe(error))", at: url, cause: error)
        }
        return FetchedDocument(url: url, status: 200, headers: [:], body: body, charset: nil, fetchedAt: clock.now())
    }

    /// Reads the file in pieces, hashing them as they pass, so that a file of any size is read
    /// in the memory of one piece.
    public func stream(_ url: String, into consume: (Data) throws -> Void) async throws -> FetchRecord {
        let file = try self.file(for: url)
        let fetchedAt = clock.now()
        let descriptor = open(file, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw Failure(.transport, "cannot read \(file): \(String(cString: strerror(errno)))", at: url)
        }
        defer { close(descriptor) }
        var digest = SHA256Stream()
        while true {
            var piece = Data(count: documentPieceBytes)
            let count = piece.withUnsafeMutableBytes { buffer in
                read(descriptor, buffer.baseAddress, buffer.count)
            }
            if count < 0 {
                if errno == EINTR { continue }
                throw Failure(.transport, "cannot read \(file): \(String(cString: strerror(errno)))", at: url)
            }
            if count == 0 { break }
            piece.count = count
            digest.update(piece)
            try consume(piece)
        }
        return FetchRecord(url: url, status: 200, headers: [:], charset: nil, sha256: digest.hex,
                           size: digest.byteCount, fetchedAt: fetchedAt)
    }

    /// The path of the file that serves `url`, checked to lie in the source's folders.
    /// Paths are joined as strings: `URL.appendingPathComponent` cost more than reading a small
    /// page, for each of the up to four names tried per document.
    private func file(for url: String) throws -> String {
        let base = rootPath + (try Self.relativePath(of: url))
        for file in [base, base + ".html", base + ".json", base + "/index.html"] {
            guard Self.isRegularFile(file) else { continue }
            let resolved = realFolders.realPath(of: file)
            guard confinement.contains(where: { resolved.hasPrefix($0) }) else {
                throw Failure(.invalidURL,
                              "\(file) is a link to \(resolved), outside the source's folder; it is not read", at: url)
            }
            return file
        }
        throw Failure(.notFound, "no file for this URL under \(root.path)", at: url)
    }

    /// One `stat` (following links, as reading does), cheaper than `FileManager` for the up to
    /// four names tried per document.
    private static func isRegularFile(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG
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

/// Real paths (every symbolic link resolved) of the folders a directory source reads from,
/// found once each: `realpath` of a file asks the kernel about every folder above it, twice per
/// document. A file that is itself a link is resolved whole each time.
private final class RealFolders: Sendable {
    private let found = Mutex<[String: String]>([:])

    func realPath(of file: String) -> String {
        var status = stat()
        guard lstat(file, &status) == 0, (status.st_mode & S_IFMT) != S_IFLNK,
              let slash = file.utf8.lastIndex(of: UInt8(ascii: "/")), slash != file.utf8.startIndex else {
            return Self.resolve(file) ?? file
        }
        let folder = String(file[..<slash])
        let real = found.withLock { $0[folder] } ?? {
            let real = Self.resolve(folder) ?? folder
            found.withLock { $0[folder] = real }
            return real
        }()
        return real + file[slash...]
    }

    /// One `realpath` call; Foundation's URL resolution allocates far more per call.
    private static func resolve(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
