import Basics
import Foundation

extension ChangeSet {
    /// One line per table that changed, with its counts.
    public func text() -> String {
        var lines = ["Changes from \(Self.describe(old)) to \(Self.describe(new)):"]
        if let resync { lines.append("  resync: \(resync); download the new snapshot whole") }
        if isEmpty { lines.append("  none") }
        for table in tables {
            if table.dropped {
                lines.append("  \(table.name): dropped")
            } else if table.replaced {
                lines.append("  \(table.name): replaced (new or different columns), \(table.inserted.count) rows")
            } else {
                lines.append("  \(table.name): \(table.inserted.count) inserted, \(table.updated.count) updated, \(table.deleted.count) deleted")
            }
        }
        for object in schemaObjects {
            lines.append("  \(object.type) \(object.name): \(object.sql == nil ? "dropped" : "new definition")")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func describe(_ side: Side) -> String {
        "\(side.snapshot) (schema \(side.schemaVersion)" + (side.builtAt.map { ", built \($0)" } ?? "") + ")"
    }

    /// The change set as one JSON object (docs/changes.md), rows as arrays in the order of
    /// `columns`, SQLite's types kept; one row per line, so a large set is written as fast as
    /// the query output is.
    public func json() -> String {
        var out = "{\n  \"format\": \"commissary-changes\",\n  \"format_version\": 1,\n"
        out += "  \"old\": \(Self.json(old)),\n  \"new\": \(Self.json(new)),\n"
        if let resync {
            // No `tables` member at all: a client that does not know the mark fails on the
            // missing rows instead of applying an empty set and believing itself up to date.
            return out + "  \"resync\": \(jsonStringLiteral(resync))\n}\n"
        }
        out += "  \"tables\": ["
        for (index, table) in tables.enumerated() {
            out += index == 0 ? "\n    {" : ",\n    {"
            Self.appendTable(table, to: &out)
        }
        out += tables.isEmpty ? "],\n" : "\n  ],\n"
        out += "  \"schema_objects\": ["
        for (index, object) in schemaObjects.enumerated() {
            out += index == 0 ? "\n    {" : ",\n    {"
            out += "\"type\": \(jsonStringLiteral(object.type)), \"name\": \(jsonStringLiteral(object.name)), \"sql\": "
            out += object.sql.map(jsonStringLiteral) ?? "null"
            out += "}"
        }
        out += schemaObjects.isEmpty ? "]\n}\n" : "\n  ]\n}\n"
        return out
    }

    /// One table's members after its opening brace: its shape, then its inserted, updated and
    /// deleted rows.
    private static func appendTable(_ table: Table, to out: inout String) {
        out += "\"name\": \(jsonStringLiteral(table.name)), \"key\": \(json(table.key)), "
        out += "\"columns\": \(json(table.columns)), \"replaced\": \(table.replaced), \"dropped\": \(table.dropped),"
        if let create = table.create { out += "\n     \"create\": \(jsonStringLiteral(create)),"}
        out += "\n     \"inserted\": ["
        appendRows(table.inserted, to: &out)
        out += "],\n     \"updated\": ["
        appendUpdates(table.updated, to: &out)
        out += table.updated.isEmpty ? "],\n     \"deleted\": [" : "\n     ],\n     \"deleted\": ["
        appendRows(table.deleted, to: &out)
        out += "]}"
    }

    /// Each update as its row's key and the columns it changed, with their new values.
    private static func appendUpdates(_ updates: [Update], to out: inout String) {
        for (position, update) in updates.enumerated() {
            out += position == 0 ? "\n       {\"key\": " : ",\n       {\"key\": "
            appendRow(update.key, to: &out)
            out += ", \"changed\": {"
            for (number, change) in update.changed.enumerated() {
                if number > 0 { out += ", " }
                out += jsonStringLiteral(change.column) + ": "
                QueryResult.appendJSON(change.value, to: &out)
            }
            out += "}}"
        }
    }

    private static func json(_ side: Side) -> String {
        "{\"snapshot\": \(jsonStringLiteral(side.snapshot)), \"schema_version\": \(side.schemaVersion), "
            + "\"built_at\": \(side.builtAt.map(jsonStringLiteral) ?? "null")}"
    }

    private static func json(_ names: [String]) -> String {
        "[" + names.map(jsonStringLiteral).joined(separator: ", ") + "]"
    }

    private static func appendRows(_ rows: [[SQLValue]], to out: inout String) {
        for (index, row) in rows.enumerated() {
            out += index == 0 ? "\n       " : ",\n       "
            appendRow(row, to: &out)
        }
        if !rows.isEmpty { out += "\n     " }
    }

    private static func appendRow(_ row: [SQLValue], to out: inout String) {
        out += "["
        for (index, value) in row.enumerated() {
            if index > 0 { out += ", " }
            QueryResult.appendJSON(value, to: &out)
        }
        out += "]"
    }
}
