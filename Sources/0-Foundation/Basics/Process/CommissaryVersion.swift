import Foundation

/// The version recorded in `_meta`, manifests, the user agent and `--version`.
public enum CommissaryVersion {
    public static let current = "0.1.0"

    /// The version and the running executable's identity: what every result the program keeps
    /// between runs (the input fingerprint, the parse cache, the menus a snapshot continues) is
    /// a function of, so that a new build never reuses what an older one made.
    public static let build = "\(current) \(executableIdentity)"

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
}
