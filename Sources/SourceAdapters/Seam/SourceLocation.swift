import Foundation
import YAMLConfig

/// Reads a location key of a pipeline file: an http(s) URL, or a path to a folder or file
/// (relative paths resolve against the pipeline file's folder).
public enum SourceLocation {
    public static func read(_ node: YAMLValue, folder: URL) throws -> Location {
        let text = try node.string()
        if text.hasPrefix("https://") || text.hasPrefix("http://") {
            let authority = text.drop { $0 != "/" }.dropFirst(2).prefix { $0 != "/" && $0 != "?" && $0 != "#" }
            guard !authority.contains("@") else {
                // The message must not repeat the URL: it holds the password.
                throw node.error("a location must not carry a user name or password (they would be stored with "
                                 + "every page); give them with `credentials_env` or `credentials_file`")
            }
            return .web(text.hasSuffix("/") ? String(text.dropLast()) : text)
        }
        guard !text.contains("://") else {
            throw node.error("only http(s) URLs and local paths are supported, found \"\(text)\"")
        }
        let url = text.hasPrefix("/") ? URL(fileURLWithPath: text)
            : folder.appendingPathComponent(text).standardizedFileURL
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw node.error("no such file or folder: \(url.path)")
        }
        return isDirectory.boolValue ? .directory(url) : .file(url)
    }
}
