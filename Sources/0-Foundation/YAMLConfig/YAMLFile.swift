import Basics
import Foundation
import Yams

/// The top mapping of a YAML configuration file (a pipeline, a standard, a plans file, a term
/// calendar), with every way of failing to get one said as a pipeline-file `Failure` naming the file
/// and, for syntax errors, the line.
public enum YAMLFile {
    /// Reads `file`; `what` names it in errors ("pipeline file", "term calendar").
    public static func mapping(of file: URL, what: String, emptyHint: String = "") throws -> YAMLMapping {
        let text: String
        do {
            // A named pipe would hold the run before it starts; it is refused as no regular file.
            guard let read = String(data: try RegularFile.contents(of: file.path, what: what), encoding: .utf8) else {
                throw Failure.pipelineFile("cannot read the \(what): it is not valid UTF-8 text", file: file.path)
            }
            text = read
        } catch let failure as Failure where failure.code != .pipelineFile {
            throw Failure.pipelineFile(failure.message, file: file.path, cause: failure.cause)
        }
        return try mapping(of: text, file: file, what: what, emptyHint: emptyHint)
    }

    /// The file a pipeline's key names (`places: places/ucla.yml`), beside the pipeline or in the
    /// shared folders, and its top mapping. A missing file is an error placed at the key that
    /// names it: the pipeline is what to fix.
    public static func mapping(namedBy node: YAMLValue, beside folder: URL, what: String) throws
        -> (file: URL, top: YAMLMapping) {
        let text = try node.string()
        let file = DataFolders.locate(text, beside: folder)
        guard FileManager.default.fileExists(atPath: file.path) else {
            throw node.error("no \(what) \"\(text)\" (looked for \(file.path))")
        }
        return (file, try mapping(of: file, what: what))
    }

    public static func mapping(of text: String, file: URL, what: String, emptyHint: String = "") throws -> YAMLMapping {
        let root: Node?
        do {
            // The basic resolver: every value is read as text and typed by the key that reads it
            // (`YAMLValue`), so the default one's regular expressions, which tag each plain scalar as
            // a number, a boolean or a date, only cost time (ICU compiles them at the first file).
            root = try Yams.compose(yaml: text, .basic)
        } catch let error as YamlError {
            throw located(error, file: file)
        } catch {
            throw Failure.pipelineFile("not valid YAML: \(error)", file: file.path, cause: error)
        }
        guard let root else {
            throw Failure.pipelineFile("the \(what) is empty" + emptyHint, file: file.path)
        }
        return try YAMLMapping(root, key: "", file: file)
    }

    private static func located(_ error: YamlError, file: URL) -> Failure {
        switch error {
        case .scanner(_, let problem, let mark, _), .parser(_, let problem, let mark, _),
             .composer(_, let problem, let mark, _):
            return Failure.pipelineFile("not valid YAML: \(problem)", file: file.path, line: mark.line, column: mark.column,
                                        cause: error)
        // Yams describes these two over several lines, quoting the file; an error stays one line.
        case .reader(let problem, let offset, _, let yaml):
            let before = offset.map { Array(yaml.utf8.prefix(max(0, $0))) }
            let line = before.map { $0.count(where: { $0 == UInt8(ascii: "\n") }) + 1 }
            let column = before.map { $0.count - ($0.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0) + 1 }
            return Failure.pipelineFile("not valid YAML: \(problem)", file: file.path, line: line, column: column,
                                        cause: error)
        case .duplicatedKeysInMapping(let duplicates, let context):
            return Failure.pipelineFile("not valid YAML: duplicated key(s) "
                                        + duplicates.sorted().map { "`\($0)`" }.joined(separator: ", "),
                                        file: file.path, line: context.mark.line, column: context.mark.column, cause: error)
        default:
            return Failure.pipelineFile("not valid YAML: "
                                        + "\(error)".split(whereSeparator: \.isNewline).joined(separator: " "),
                                        file: file.path, cause: error)
        }
    }
}
