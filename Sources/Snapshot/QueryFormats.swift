import Foundation

extension QueryResult {
    public enum Format: String, CaseIterable, Sendable {
        case table, csv, json
    }

    public func formatted(as format: Format) -> String {
        switch format {
        case .table: table()
        case .csv: csv()
        case .json: json()
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

    /// An array of objects keyed by column, with SQLite's types kept: NULL → null, integers and
    /// reals → numbers, blobs → base64 text.
    public func json() -> String {
        let objects: [[String: Any]] = rows.map { row in
            var object: [String: Any] = [:]
            for (column, value) in zip(columns, row) {
                switch value {
                case .null: object[column] = NSNull()
                case .integer(let number): object[column] = NSNumber(value: number)
                case .real(let number): object[column] = NSNumber(value: number)
                case .text(let text): object[column] = text
                case .blob(let data): object[column] = data.base64EncodedString()
                }
            }
            return object
        }
        let data = (try? JSONSerialization.data(withJSONObject: objects,
                                                options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]))
            ?? Data("[]".utf8)
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    /// Aligned columns for reading in a terminal; NULL shows as `NULL`.
    public func table() -> String {
        let cells = rows.map { row in
            row.map { value -> String in
                if case .null = value { return "NULL" }
                return Self.text(value).replacingOccurrences(of: "\n", with: "⏎")
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
