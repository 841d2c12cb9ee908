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
/// resolves to outside the folders the source may read (`confinedTo`).
public struct DirectorySource: DocumentSource {
    public let root: URL
    /// `root`'s path, ending in "/".
    private let rootPath: String
    /// The folders, symbolic links resolved, that every file read must lie in.
    public let confinement: [String]
    /// What stamps `fetchedAt`.
    private let clock: RunClock

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
            let resolved = Self.realPath(file) ?? file
            guard confinement.contains(where: { resolved.hasPrefix($0) }) else {
                throw Failure(.invalidURL,
                              "\(file) is a link to \(resolved), outside the source's folder; it is not read", at: url)
            }
            return file
        }
        throw Failure(.notFound, "no file for this URL under \(root.path)", at: url)
    }

    /// The path with every symbolic link resolved, by one `realpath` call: every document read
    /// goes through here, and Foundation's URL resolution allocates far more per call.
    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// One `stat` (following links, as reading does), cheaper than `FileManager` for the up to
    /// four names tried per document.
    private static func isRegularFile(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG
    }

    /// The file path a URL maps to, relative to the root; throws for traversal attempts.
    static func relativePath(of url: String) throws -> String {
        var rest = Substring(url)
        // The standard library's search, not Foundation's `range(of:)`, which cost more than
        // the rest of this together.
        if let scheme = rest.firstRange(of: "://") {
            rest = rest[scheme.upperBound...]
            rest = rest.firstIndex(of: "/").map { rest[$0...] } ?? ""
        }
        if let hash = rest.firstIndex(of: "#") { rest = rest[..<hash] }
        // Substrings, not Strings, until the end: every document read comes through here.
        let path = rest.firstIndex(of: "?").map { question in
            Substring(rest[..<question] + "@" + rest[rest.index(after: question)...])
        } ?? rest
        let components = path.split(separator: "/")
        guard !components.isEmpty else {
            throw Failure(.invalidURL, "the URL has no path to look up", at: url)
        }
        guard !components.contains(where: { $0 == ".." || $0 == "." || $0.utf8.contains(0) }) else {
            throw Failure(.invalidURL, "the path climbs out of the source folder", at: url)
        }
        return components.joined(separator: "/")
    }
}
