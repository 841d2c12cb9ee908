import Foundation

/// Where a pipeline's shared files are found: the daily-value standards, meal plans, term
/// calendars and places files a pipeline names by a relative path (`standards/fda-2016.yml`,
/// `plans/ucla.yml`). A file beside the pipeline wins; otherwise the defaults installed with the
/// program are used, so an installed `commissary` runs a pipeline from any folder:
/// `$COMMISSARY_DATA`, then `share/commissary` beside the binary's folder (the layout of
/// `/usr/local/bin/commissary` and `/usr/local/share/commissary/`).
public enum DataFolders {
    /// The file `relative` names, as the pipeline in `folder` means it. When no folder has it,
    /// the path beside the pipeline, so that the error names where it was expected first.
    public static func locate(_ relative: String, beside folder: URL) -> URL {
        if relative.hasPrefix("/") { return URL(fileURLWithPath: relative) }
        let beside = folder.appendingPathComponent(relative).standardizedFileURL
        if FileManager.default.fileExists(atPath: beside.path) { return beside }
        for root in roots {
            let candidate = root.appendingPathComponent(relative).standardizedFileURL
            if FileManager.default.fileExists(atPath: candidate.path) { return candidate }
        }
        return beside
    }

    /// The installed file `relative` names (in `$COMMISSARY_DATA`, then `share/commissary` beside
    /// the binary's folder), if one is there.
    public static func installed(_ relative: String) -> URL? {
        roots.map { $0.appendingPathComponent(relative).standardizedFileURL }
            .first { FileManager.default.fileExists(atPath: $0.path) }
    }

    /// The folders of installed defaults, in the order they are searched.
    static var roots: [URL] {
        var roots: [URL] = []
        if let override = ProcessInfo.processInfo.environment["COMMISSARY_DATA"], !override.isEmpty {
            roots.append(URL(fileURLWithPath: override))
        }
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        roots.append(executable.deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("share/commissary"))
        return roots
    }
}
