import Basics
import Foundation
import YAMLConfig

/// Reads a location key of a pipeline file: an http(s) URL, or a path to a folder or file
/// (relative paths resolve against the pipeline file's folder).
public enum SourceLocation {
    public static func read(_ node: YAMLValue, folder: URL) throws -> Location {
        let text = try node.string()
        do {
            if let address = try webAddress(text) { return .web(address) }
        } catch {
            throw node.error(error.code == .credentialsInAddress
                             ? "\(error.message); they would be stored with every page: give them with `credentials_env` "
                               + "or `credentials_file` (user:password)"
                             : error.message)
        }
        let url = text.hasPrefix("/") ? URL(fileURLWithPath: text)
            : folder.appendingPathComponent(text).standardizedFileURL
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw node.error("no such file or folder: \(url.path)")
        }
        return isDirectory.boolValue ? .directory(url) : .file(url)
    }

    /// `text` as the address of a site (scheme in lower case, no trailing `/`), or nil when it
    /// is no address (a path). An address is read as a URL before anything is taken from it,
    /// and one with a user name or password is refused however the password is spelled: any
    /// `@` is refused, since with `/`, `?` or `#` in a password URL readers disagree on where
    /// the user-info ends (`http://u:p/ss@host` is host `u` to one and host `host` to another).
    /// A refusal's message never repeats a password; one for an address with an `@` has the code
    /// `credentialsInAddress`, and the caller says where credentials go instead. The caller also
    /// gives the place (the pipeline key or the argument).
    public static func webAddress(_ text: String) throws(Failure) -> String? {
        guard let separator = text.range(of: "://") else { return nil }
        let scheme = text[..<separator.lowerBound].lowercased()
        guard scheme == "http" || scheme == "https" else {
            throw Failure(.badInput, "only http(s) URLs and local paths are supported, found \"\(Redaction.apply(text))\"")
        }
        guard !text.contains("@") else {
            throw Failure(.credentialsInAddress, "an address must not carry a user name or password (the address is not "
                          + "repeated here; an @ of its path is written %40)")
        }
        let address = scheme + text[separator.lowerBound...]
        // Foundation's URL reader lets a line break through, which would split a request.
        guard !address.unicodeScalars.contains(where: { $0.properties.isWhitespace || $0.properties.generalCategory == .control })
        else {
            throw Failure(.badInput, "an address must not hold a space, line break or control character (a space is "
                          + "written %20): \(address.debugDescription)")
        }
        guard let components = URLComponents(string: address), let host = components.host, !host.isEmpty else {
            throw Failure(.badInput, "not an address a request can be made to: \"\(address)\"")
        }
        return address.hasSuffix("/") ? String(address.dropLast()) : address
    }
}
