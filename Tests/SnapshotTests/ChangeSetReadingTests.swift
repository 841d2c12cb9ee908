import Foundation
import Snapshot
import Testing

/// A change file's fields are read by their type; one of the wrong type is refused, naming it.
@Suite struct ChangeSetReadingTests {
    private func changeSet(table extra: String) -> Data {
        Data("""
            {"format": "commissary-changes", "format_version": 1,
             "old": {"snapshot": "a.sqlite", "schema_version": 20, "built_at": null},
             "new": {"snapshot": "b.sqlite", "schema_version": 20, "built_at": "2026-10-12T02:00:00Z"},
             "tables": [{"name": "food", "key": ["id"], "columns": ["id", "name"], "dropped": false,
                         "replaced": false\(extra), "inserted": [["f1", "Oatmeal"]], "updated": [], "deleted": []}],
             "schema_objects": []}
            """.utf8)
    }

    @Test func aTableWithoutCreateIsRead() throws {
        let changes = try ChangeSet(json: changeSet(table: ""), place: "b.changes.json")
        #expect(changes.tables.map(\.name) == ["food"])
        #expect(changes.tables.first?.create == nil)
        #expect(changes.tables.first?.inserted.count == 1)
    }

    /// It used to be dropped without a word, the table read as if it had none.
    @Test func aCreateThatIsNotTextIsRefused() throws {
        #expect { try ChangeSet(json: changeSet(table: ", \"create\": 5"), place: "b.changes.json") } throws: { error in
            "\(error)" == "b.changes.json: not a change set: table food.create is missing or of the wrong type"
        }
    }
}
