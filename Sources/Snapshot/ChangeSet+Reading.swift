import Basics
import Foundation

extension ChangeSet {
    /// A change set as `json()` writes it (format version 1), read back: what `commissary
    /// changes --since` composes from the change files beside snapshots. Anything else is refused
    /// in one line naming `place`.
    public init(json data: Data, place: String) throws {
        let reader = ChangeSetFields(place: place)
        let root: [String: Any]
        do {
            root = try reader.object(try JSONSerialization.jsonObject(with: data), "the change set")
        } catch let failure as Failure {
            throw failure
        } catch {
            throw Failure(.damagedBytes, "not a change set: its JSON cannot be read", at: place)
        }
        guard root["format"] as? String == "commissary-changes", root["format_version"] as? Int == 1 else {
            throw Failure(.damagedBytes, "not a commissary change set of format version 1", at: place)
        }
        self.init(old: try reader.side(root["old"], "old"), new: try reader.side(root["new"], "new"),
                  tables: try reader.array(root["tables"], "tables").map(reader.table),
                  schemaObjects: try reader.array(root["schema_objects"], "schema_objects").map(reader.schemaObject))
    }
}

/// Reads the fields of a change set's JSON, each refusal naming the field.
private struct ChangeSetFields {
    let place: String

    func refuse(_ field: String) -> Failure {
        Failure(.damagedBytes, "not a change set: \(field) is missing or of the wrong type", at: place)
    }

    func object(_ value: Any?, _ field: String) throws -> [String: Any] {
        guard let object = value as? [String: Any] else { throw refuse(field) }
        return object
    }

    func array(_ value: Any?, _ field: String) throws -> [Any] {
        guard let array = value as? [Any] else { throw refuse(field) }
        return array
    }

    func strings(_ value: Any?, _ field: String) throws -> [String] {
        guard let strings = value as? [String] else { throw refuse(field) }
        return strings
    }

    func flag(_ value: Any?, _ field: String) throws -> Bool {
        guard let number = value as? NSNumber, String(cString: number.objCType) == "c" else { throw refuse(field) }
        return number.boolValue
    }

    /// SQLite's types kept: JSONSerialization reads a number written with a fraction or an
    /// exponent as a double (`d`) and any other as an integer.
    func value(_ value: Any, _ field: String) throws -> SQLValue {
        if value is NSNull { return .null }
        if let text = value as? String { return .text(text) }
        guard let number = value as? NSNumber else { throw refuse(field) }
        switch String(cString: number.objCType) {
        case "d", "f": return .real(number.doubleValue)
        case "c": throw refuse(field)
        default: return .integer(number.int64Value)
        }
    }

    func row(_ value: Any?, _ field: String) throws -> [SQLValue] {
        try array(value, field).map { try self.value($0, field) }
    }

    func side(_ value: Any?, _ field: String) throws -> ChangeSet.Side {
        let side = try object(value, field)
        guard let snapshot = side["snapshot"] as? String, let version = side["schema_version"] as? Int else {
            throw refuse(field)
        }
        let builtAt = side["built_at"] as? String
        guard builtAt != nil || side["built_at"] is NSNull else { throw refuse("\(field).built_at") }
        return ChangeSet.Side(snapshot: snapshot, schemaVersion: version, builtAt: builtAt)
    }

    func table(_ value: Any) throws -> ChangeSet.Table {
        let table = try object(value, "a table")
        guard let name = table["name"] as? String else { throw refuse("a table's name") }
        let field = "table \(name)"
        let columns = try strings(table["columns"], "\(field).columns")
        let updated = try array(table["updated"], "\(field).updated").map { entry in
            let update = try object(entry, "\(field).updated")
            let changed = try object(update["changed"], "\(field).updated.changed")
            // JSON objects keep no order: the table's column order is the one the writer used.
            return ChangeSet.Update(key: try row(update["key"], "\(field).updated.key"),
                                    changed: try changed.keys.sorted { (columns.firstIndex(of: $0) ?? .max, $0)
                                        < (columns.firstIndex(of: $1) ?? .max, $1) }
                                        .map { ChangeSet.Change(column: $0, value: try self.value(changed[$0] as Any, "\(field).updated")) })
        }
        return ChangeSet.Table(
            name: name, key: try strings(table["key"], "\(field).key"), columns: columns,
            replaced: try flag(table["replaced"], "\(field).replaced"), dropped: try flag(table["dropped"], "\(field).dropped"),
            create: table["create"] as? String,
            inserted: try array(table["inserted"], "\(field).inserted").map { try row($0, "\(field).inserted") },
            updated: updated,
            deleted: try array(table["deleted"], "\(field).deleted").map { try row($0, "\(field).deleted") })
    }

    func schemaObject(_ value: Any) throws -> ChangeSet.SchemaObject {
        let entry = try object(value, "a schema object")
        guard let type = entry["type"] as? String, let name = entry["name"] as? String else { throw refuse("a schema object") }
        return ChangeSet.SchemaObject(type: type, name: name, sql: entry["sql"] as? String)
    }
}
