import Basics

/// `--format` of the commands that list things: `json` is one array, an element a line, as
/// `query` writes it; `jsonl` is one object a line (JSON Lines), for a reader that streams.
public enum ListFormat: String, CaseIterable, Sendable {
    case table, json, jsonl

    /// The listed values in this format's JSON form; nil for `table`.
    public func json(_ values: [some Encodable]) -> String? {
        let lines = values.map { UserJSON.line($0) }
        switch self {
        case .table: return nil
        case .jsonl: return lines.joined(separator: "\n")
        case .json: return lines.isEmpty ? "[]" : "[\n  " + lines.joined(separator: ",\n  ") + "\n]"
        }
    }
}
