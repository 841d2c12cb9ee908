import Basics
import Foundation

extension ChangeSet {
    /// A change set as `json()` writes it (format version 1), read back: what `commissary
    /// changes --since` composes from the change files beside snapshots. Anything else is refused
    /// in one line naming `place`.
    public init(json data: Data, place: String) throws {
        // The reader would mend invalid UTF-8 into U+FFFD, and the composed rows would then
        // differ from the snapshot's without a word.
        if String(validating: data, as: UTF8.self) == nil {
            throw Failure(.damagedBytes, "not UTF-8 at byte \(Self.firstInvalidUTF8(data))", at: place)
        }
        let fields = ChangeSetFields(place: place)
        let root = try fields.object(try JSONValue.parse(data, place: place), "the change set")
        guard root["format"] == .string("commissary-changes"), root["format_version"] == .integer(1) else {
            throw Failure(.damagedBytes, "not a commissary change set of format version 1", at: place)
        }
        let sides = (old: try fields.side(root["old"], "old"), new: try fields.side(root["new"], "new"))
        if let resync = root["resync"] {
            self.init(old: sides.old, new: sides.new, tables: [], schemaObjects: [],
                      resync: try fields.text(resync, "resync"))
            return
        }
        self.init(old: sides.old, new: sides.new,
                  tables: try fields.array(root["tables"], "tables").map(fields.table),
                  schemaObjects: try fields.array(root["schema_objects"], "schema_objects").map(fields.schemaObject))
    }

    /// The change file at `file`, gzipped (`<snapshot>.changes.json.gz`). Only a regular file is
    /// read, opened without blocking: a folder or a FIFO in its place is named as such, never
    /// waited on.
    public init(contentsOf file: URL) throws {
        let bytes = try RegularFile.contents(of: file.path, what: "change file")
        try self.init(json: try Gzip.decompress(bytes, place: file.path), place: file.path)
    }

    /// The offset of the first byte of `data` that does not begin or continue a UTF-8 character.
    private static func firstInvalidUTF8(_ data: Data) -> Int {
        var parser = Unicode.UTF8.ForwardParser()
        var bytes = data.makeIterator()
        var offset = 0
        while case .valid(let character) = parser.parseScalar(from: &bytes) { offset += character.count }
        return offset
    }
}

/// Reads the fields of a change set's JSON, each refusal naming the field.
private struct ChangeSetFields {
    let place: String

    func refuse(_ field: String) -> Failure {
        Failure(.damagedBytes, "not a change set: \(field) is missing or of the wrong type", at: place)
    }

    func object(_ value: JSONValue?, _ field: String) throws -> [String: JSONValue] {
        guard case .object(let members, _) = value else { throw refuse(field) }
        return members
    }

    func array(_ value: JSONValue?, _ field: String) throws -> [JSONValue] {
        guard case .array(let elements) = value else { throw refuse(field) }
        return elements
    }

    func text(_ value: JSONValue?, _ field: String) throws -> String {
        guard case .string(let text) = value else { throw refuse(field) }
        return text
    }

    func strings(_ value: JSONValue?, _ field: String) throws -> [String] {
        try array(value, field).map { try text($0, field) }
    }

    func flag(_ value: JSONValue?, _ field: String) throws -> Bool {
        guard case .bool(let flag) = value else { throw refuse(field) }
        return flag
    }

    func value(_ value: JSONValue?, _ field: String) throws -> SQLValue {
        switch value {
        case .null: return .null
        case .integer(let number): return .integer(number)
        case .real(let number): return .real(number)
        case .string(let text): return .text(text)
        default: throw refuse(field)
        }
    }

    func row(_ value: JSONValue?, _ field: String) throws -> [SQLValue] {
        try array(value, field).map { try self.value($0, field) }
    }

    func side(_ value: JSONValue?, _ field: String) throws -> ChangeSet.Side {
        let side = try object(value, field)
        guard case .integer(let version) = side["schema_version"] else { throw refuse("\(field).schema_version") }
        let builtAt: String? = side["built_at"] == .null ? nil : try text(side["built_at"], "\(field).built_at")
        return ChangeSet.Side(snapshot: try text(side["snapshot"], "\(field).snapshot"), schemaVersion: Int(version),
                              builtAt: builtAt)
    }

    /// The refusal of a table whose rows do not fit its own key and columns.
    func misfit(_ field: String, _ what: String) -> Failure {
        Failure(.damagedBytes, "not a change set: \(field): \(what)", at: place)
    }

    /// A row of exactly `width` values; `what` names it in the refusal.
    func row(_ value: JSONValue?, width: Int, _ field: String, _ what: String) throws -> [SQLValue] {
        let values = try row(value, field)
        guard values.count == width else { throw misfit(field, "\(what) holds \(values.count) value(s), not \(width)") }
        return values
    }

    /// A table's changes, each row as wide as its columns or its key: composing indexes rows by
    /// the key's place among the columns, so a short row must stop here, not there.
    func table(_ value: JSONValue) throws -> ChangeSet.Table {
        let table = try object(value, "a table")
        let name = try text(table["name"], "a table's name")
        let field = "table \(name)"
        let key = try strings(table["key"], "\(field).key")
        let columns = try strings(table["columns"], "\(field).columns")
        let dropped = try flag(table["dropped"], "\(field).dropped")
        guard Set(columns).count == columns.count else { throw misfit(field, "a column is named twice") }
        if !dropped, let stray = key.first(where: { !columns.contains($0) }) {
            throw misfit(field, "its key names \(stray), which is not one of its columns")
        }
        let updated = try array(table["updated"], "\(field).updated").map { entry in
            let update = try object(entry, "\(field).updated")
            guard case .object(let changed, let order) = update["changed"] else { throw refuse("\(field).updated.changed") }
            guard !key.isEmpty else { throw misfit(field, "a table whose whole row is its key has no updates") }
            if let stray = order.first(where: { !columns.contains($0) || key.contains($0) }) {
                throw misfit(field, "an update changes \(stray), which is not one of its columns outside the key")
            }
            return ChangeSet.Update(key: try row(update["key"], width: key.count, field, "an updated row's key"),
                                    changed: try order.map { ChangeSet.Change(column: $0, value: try self.value(changed[$0], "\(field).updated")) })
        }
        // Written only for a replaced table; when present it must be text, not quietly dropped.
        let create: String? = try table["create"].map { try text($0, "\(field).create") }
        return ChangeSet.Table(
            name: name, key: key, columns: columns,
            replaced: try flag(table["replaced"], "\(field).replaced"), dropped: dropped,
            create: create,
            inserted: try array(table["inserted"], "\(field).inserted").map {
                try row($0, width: columns.count, field, "an inserted row")
            },
            updated: updated,
            deleted: try array(table["deleted"], "\(field).deleted").map {
                try row($0, width: key.isEmpty ? columns.count : key.count, field, "a deleted row's key")
            })
    }

    func schemaObject(_ value: JSONValue) throws -> ChangeSet.SchemaObject {
        let entry = try object(value, "a schema object")
        let sql: String? = entry["sql"] == .null ? nil : try text(entry["sql"], "a schema object's sql")
        return ChangeSet.SchemaObject(type: try text(entry["type"], "a schema object's type"),
                                      name: try text(entry["name"], "a schema object's name"), sql: sql)
    }
}
