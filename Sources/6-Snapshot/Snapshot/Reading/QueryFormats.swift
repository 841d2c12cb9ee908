import Basics
import Foundation

extension QueryResult {
    /// `json` is one array with an object a line; `jsonl` the same objects, one a line, without
    /// the array (JSON Lines), as every command's `--format` spells them.
    public enum Format: String, CaseIterable, Sendable {
        case table, csv, json, jsonl
    }

    public func formatted(as format: Format) -> String {
        switch format {
        case .table: table()
        case .csv: csv()
        case .json: json()
        case .jsonl: jsonLines()
        }
    }

    /// RFC 4180: fields with a comma, quote, CR or LF are quoted and quotes doubled; NULL is an
    /// empty field, the one lossy spot of CSV, which is why `json` exists.
    public func csv() -> String {
        func field(_ text: String) -> String {
            guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
            return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        }
        var lines = [columns.map(field).joined(separator: ",")]
        for row in rows {
            lines.append(row.map { value -> String in
                switch value {
                case .null: return ""
                default: return field(Self.text(value))
                }
            }.joined(separator: ","))
        }
        return lines.joined(separator: "\r\n") + "\r\n"
    }

    /// An array of objects, one per row, with the columns in the SELECT's order and SQLite's
    /// types kept: NULL → null, integers and reals → numbers (an infinite real, which JSON cannot
    /// hold, → null), text → a string, a blob → base64 text. A column name the SELECT repeats
    /// gets `_2`, `_3` … so that no value is lost to a key written twice. Written directly, one
    /// row per line, as fast as CSV.
    public func json() -> String {
        let keys = Self.uniqueKeys(columns).map(jsonStringLiteral)
        var out = "["
        out.reserveCapacity(rows.count * max(16, columns.count * 16))
        for (index, row) in rows.enumerated() {
            out += index == 0 ? "\n  " : ",\n  "
            Self.appendObject(row, keys: keys, to: &out)
        }
        out += rows.isEmpty ? "]\n" : "\n]\n"
        return out
    }

    /// The objects of `json`, one a line, without the array (JSON Lines).
    public func jsonLines() -> String {
        let keys = Self.uniqueKeys(columns).map(jsonStringLiteral)
        var out = ""
        out.reserveCapacity(rows.count * max(16, columns.count * 16))
        for row in rows {
            Self.appendObject(row, keys: keys, to: &out)
            out += "\n"
        }
        return out
    }

    private static func appendObject(_ row: [SQLValue], keys: [String], to out: inout String) {
        out += "{"
        for (position, value) in row.enumerated() {
            if position > 0 { out += ", " }
            out += keys[position]
            out += ": "
            appendJSON(value, to: &out)
        }
        out += "}"
    }

    /// A value as JSON, SQLite's type kept: NULL → null, integers and reals → numbers (an
    /// infinite real, which JSON cannot hold, → null), text → a string, a blob → base64 text.
    static func appendJSON(_ value: SQLValue, to out: inout String) {
        switch value {
        case .null: out += "null"
        case .integer(let number): out += String(number)
        case .real(let number): out += number.isFinite ? "\(number)" : "null"
        case .text(let text): out += jsonStringLiteral(text)
        case .blob(let data): out += jsonStringLiteral(data.base64EncodedString())
        }
    }

    /// Column names, each once: a repeat takes `_2`, `_3` … (skipping any name already taken).
    static func uniqueKeys(_ columns: [String]) -> [String] {
        var taken = Set<String>()
        return columns.map { name in
            var key = name
            var suffix = 2
            while !taken.insert(key).inserted {
                key = "\(name)_\(suffix)"
                suffix += 1
            }
            return key
        }
    }

    /// Aligned columns for reading in a terminal; NULL shows as `NULL`.
    public func table() -> String {
        let cells = rows.map { row in
            row.map { value -> String in
                if case .null = value { return "NULL" }
                // A line break shows as ⏎; any other control character escaped, so that a value
                // cannot move the cursor or act on the terminal.
                return TerminalText.oneLine(Self.text(value).replacingOccurrences(of: "\n", with: "⏎"))
            }
        }
        var widths = columns.map(\.count)
        for row in cells {
            for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell.count) }
        }
        func line(_ values: [String]) -> String {
            zip(values, widths).map { $0 + String(repeating: " ", count: $1 - $0.count) }
                .joined(separator: "  ").trimmingCharacters(in: .whitespaces)
        }
        var lines = [line(columns), line(widths.map { String(repeating: "-", count: $0) })]
        lines += cells.map(line)
        lines.append("(\(rows.count) row\(rows.count == 1 ? "" : "s"))")
        return lines.joined(separator: "\n") + "\n"
    }

    static func text(_ value: SQLValue) -> String {
        switch value {
        case .null: ""
        case .integer(let number): String(number)
        case .real(let number): number == number.rounded() && abs(number) < 1e15
            ? String(format: "%.1f", number) : String(number)
        case .text(let text): text
        case .blob(let data): data.base64EncodedString()
        }
    }
}
