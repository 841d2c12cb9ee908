import Foundation

/// The version recorded in `_meta`, manifests, the user agent and `--version`.
public enum CommissaryVersion {
    public static let current = "0.1.0"

    /// The version and the running executable's identity: what every result the program keeps
    /// between runs (the input fingerprint, the parse cache, the menus a snapshot continues) is
    /// a function of, so that a new build never reuses what an older one made.
    public static let build = "\(current) \(executableIdentity) libraries \(libraryIdentity)"

    /// The running executable's GNU build ID (`ELFBuildID`): the same code gives the same ID,
    /// however often it is relinked. A binary without one is identified by its path, size and
    /// modification time instead, which errs only towards doing the work again.
    private static let executableIdentity: String = {
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        if let id = ELFBuildID.read(executable) { return "build-id \(id)" }
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: executable.path),
              let size = attributes[.size] as? Int,
              let modified = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970
        else { return "unknown executable \(UUID())" }
        return "\(executable.path) \(size) \(modified)"
    }()

    /// The shared libraries the process has loaded, each by its build ID, hashed: libxml2 reads
    /// every page, Foundation every date and number, and a system upgrade of one changes what the
    /// same executable makes of the same bytes, without a rebuild that would change its own ID.
    /// Any upgrade of any of them makes the next night do the work again, which is only slower.
    private static let libraryIdentity: String = {
        // Read to its end: a file of /proc has no size to read up to.
        guard let data = try? FileHandle(forReadingFrom: URL(fileURLWithPath: "/proc/self/maps")).readToEnd(),
              let maps = String(data: data, encoding: .utf8) else { return "unknown" }
        return libraryIdentity(of: maps)
    }()

    /// The identity of the shared libraries a process map (`/proc/<pid>/maps`) lists.
    static func libraryIdentity(of maps: String) -> String {
        // A line is address, permissions, offset, device, inode and, for a mapped file, its path.
        let paths = Set(maps.split(separator: "\n").compactMap { line -> String? in
            let fields = line.split(separator: " ", maxSplits: 5, omittingEmptySubsequences: true)
            guard fields.count == 6 else { return nil }
            let path = fields[5].trimmingCharacters(in: .whitespaces)
            return path.hasPrefix("/") && path.contains(".so") ? path : nil
        })
        let identities = paths.map { path -> String in
            let file = URL(fileURLWithPath: path)
            if let id = ELFBuildID.read(file) { return "\(file.lastPathComponent) \(id)" }
            let attributes = try? FileManager.default.attributesOfItem(atPath: path)
            return "\(path) \(attributes?[.size] as? Int ?? -1) \((attributes?[.modificationDate] as? Date)?.timeIntervalSince1970 ?? -1)"
        }
        // In the order of the identities: where a library lies does not change what it does.
        return String(sha256Hex(Data(identities.sorted().joined(separator: "\n").utf8)).prefix(16))
    }
}
