@testable import Snapshot
import Basics
import FoodModel
import Foundation
import GRDB
import Synchronization
import Testing

/// Publishing's check of every reference (`ForeignKeyCheck`): the verdict and the lines of
/// `PRAGMA foreign_key_check`, reached by walking each reference's distinct values where an
/// index allows.
@Suite struct ForeignKeyCheckTests {
    /// The small dataset with De Neve's fries served with the burger before them: an item whose
    /// `served_with_id` names another.
    private func datasetWithASide() -> Dataset {
        var dataset = smallDataset()
        dataset.serviceDays[0].meals[0].restaurants[1].sections[0].foods[1].servedWith = 0
        return dataset
    }

    /// A published snapshot of `datasetWithASide`, copied to a file the test may change (with
    /// references unenforced, as the staging database writes them).
    private func writableSnapshot(in folder: URL) throws -> DatabaseQueue {
        let store = SnapshotStore(directory: folder.appendingPathComponent("snapshots"))
        let staging = try stage(datasetWithASide(), in: folder)
        let published = try store.publish(staging, fileName: "demo-2026-10-12-r1.sqlite", pipeline: "demo")
        staging.discard()
        let copy = folder.appendingPathComponent("copy.sqlite")
        try FileManager.default.copyItem(at: published, to: copy)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: copy.path)
        var configuration = Configuration()
        configuration.foreignKeysEnabled = false
        return try DatabaseQueue(path: copy.path, configuration: configuration)
    }

    /// The check's lines, with every statement it ran.
    private func check(_ queue: DatabaseQueue) throws -> (problems: [String], statements: [String]) {
        let statements = Mutex<[String]>([])
        let problems = try queue.inDatabase { db in
            db.trace { event in statements.withLock { $0.append("\(event)") } }
            defer { db.trace(nil) }
            return try ForeignKeyCheck.problems(db)
        }
        return (problems, statements.withLock { $0 })
    }

    /// SQLite's own pragma over the whole file, as the lines the check gives.
    private func wholeFilePragma(_ queue: DatabaseQueue) throws -> [String] {
        try queue.inDatabase { db in
            try Row.fetchAll(db, sql: "PRAGMA foreign_key_check").map { row in
                let rowid: Int64? = row[1]
                return "foreign key from \(row[0] as String) row \(rowid.map(String.init) ?? "?") to \(row[2] as String) is broken"
            }
        }
    }

    private func update(_ queue: DatabaseQueue, _ sql: String, _ arguments: StatementArguments = []) throws {
        try queue.inDatabase { db in try db.execute(sql: sql, arguments: arguments) }
    }

    @Test func aSoundSnapshotIsFoundSoundWithoutAPragmaOverItsItems() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let queue = try writableSnapshot(in: folder)
        // The side is there, so all four of an item's references hold a value somewhere.
        #expect(try queue.inDatabase { db in try Int.fetchOne(db, sql: "SELECT count(served_with_id) FROM menu_item") } == 1)
        let (problems, statements) = try check(queue)
        #expect(problems.isEmpty)
        #expect(try wholeFilePragma(queue).isEmpty)
        #expect(!statements.contains { $0.contains("foreign_key_check(\"menu_item\")") })
        // The walk: each of the item's references stepped through in its index.
        for column in ["meal_id", "section_id", "food_id", "served_with_id"] {
            #expect(statements.contains { $0.contains("SELECT min(\"\(column)\") FROM \"menu_item\" WHERE \"\(column)\" >") })
        }
        // Tables with a reference that cannot be walked are checked by the pragma: one of two
        // columns (`food_label_nutrient` to `food_label`), a column that leads no index
        // (`restaurant.place_name`), columns second in their table's key and in no index of
        // their own (`code_term.term`, `food_nutrient_agreement.nutrient_key`).
        #expect(statements.filter { $0.contains("foreign_key_check") }
            == ["PRAGMA foreign_key_check(\"code_term\")", "PRAGMA foreign_key_check(\"food_label_nutrient\")",
                "PRAGMA foreign_key_check(\"food_nutrient_agreement\")", "PRAGMA foreign_key_check(\"restaurant\")"])
    }

    /// Each of an item's four references, broken in turn on De Neve's fries (2026-10-10's first
    /// meal, third item), is found, as the pragma over the whole file finds it.
    @Test(arguments: [
        ("meal_id", "meal", "UPDATE menu_item SET meal_id = 1 WHERE id = ?"),
        ("section_id", "section", "UPDATE menu_item SET section_id = 999 WHERE id = ?"),
        ("food_id", "food", "UPDATE menu_item SET food_id = 'nowhere:1' WHERE id = ?"),
        ("served_with_id", "menu_item", "UPDATE menu_item SET served_with_id = 7 WHERE id = ?"),
    ])
    func aBrokenReferenceOfAnItemIsFound(column: String, parent: String, breaking: String) throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let queue = try writableSnapshot(in: folder)
        let fries = try #require(try queue.inDatabase { db in
            try Int.fetchOne(db, sql: "SELECT id FROM menu_item WHERE meal_id = 2026101001 AND name = 'Fries'")
        })
        try update(queue, breaking, [fries])
        let (problems, statements) = try check(queue)
        #expect(problems == ["foreign key from menu_item row \(fries) to \(parent) is broken"])
        #expect(problems == (try wholeFilePragma(queue)))
        #expect(statements.contains { $0.contains("foreign_key_check(\"menu_item\")") })
    }

    /// A reference second in its table's key (an agreement's nutrient), broken on one of two
    /// rows, is found by the pragma as over the whole file.
    @Test func aBrokenReferenceSecondInItsKeyIsFound() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let queue = try writableSnapshot(in: folder)
        // The small dataset prints no %DV, so it has no agreements: one sound row and one broken.
        try update(queue, """
            INSERT INTO food_nutrient_agreement
            SELECT f.id, n.key, 'fda-2016', 10, 10, 9, 11, 1, 1, 1 FROM food f, nutrient n
            WHERE f.id = (SELECT min(id) FROM food) AND n.key = (SELECT min(key) FROM nutrient)
            UNION ALL
            SELECT id, 'nowhere', 'fda-2016', 10, 10, 9, 11, 1, 1, 1 FROM food WHERE id = (SELECT min(id) FROM food)
            """)
        let (problems, statements) = try check(queue)
        #expect(problems == ["foreign key from food_nutrient_agreement row ? to nutrient is broken"])
        #expect(problems == (try wholeFilePragma(queue)))
        #expect(!statements.contains { $0.contains("SELECT min(\"nutrient_key\") FROM \"food_nutrient_agreement\"") })
    }

    /// A file whose item column leads no index (here, its index dropped) is checked by the
    /// pragma alone, and a broken reference is still found.
    @Test func aColumnWithoutAnIndexIsCheckedByThePragma() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let queue = try writableSnapshot(in: folder)
        try update(queue, "DROP INDEX menu_item_by_served_with")
        let sound = try check(queue)
        #expect(sound.problems.isEmpty)
        #expect(sound.statements.contains { $0.contains("foreign_key_check(\"menu_item\")") })
        #expect(!sound.statements.contains { $0.contains("SELECT min(\"served_with_id\")") })

        try update(queue, "UPDATE menu_item SET section_id = 999 WHERE name = 'Fries'")
        let broken = try check(queue)
        #expect(broken.problems.count == 1)
        #expect(broken.problems == (try wholeFilePragma(queue)))
    }

    /// A reference to a parent whose key is not unique is left to the pragma, which refuses the
    /// file with SQLite's own words ("foreign key mismatch") rather than calling it sound.
    @Test func aParentKeyThatIsNotUniqueIsLeftToThePragma() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let queue = try writableSnapshot(in: folder)
        try update(queue, """
            CREATE TABLE loose_parent (name TEXT);
            CREATE TABLE loose_child (id INTEGER PRIMARY KEY, parent TEXT REFERENCES loose_parent(name));
            CREATE INDEX loose_child_by_parent ON loose_child(parent);
            INSERT INTO loose_parent VALUES ('a');
            INSERT INTO loose_child VALUES (1, 'a');
            """)
        #expect(throws: DatabaseError.self) { try check(queue) }
    }
}
