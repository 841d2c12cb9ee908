import Foundation
import GRDB
@testable import Snapshot
import Testing

@Suite struct RowInsertTests {
    private func database() throws -> DatabaseQueue {
        let queue = try DatabaseQueue()
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE row (id INTEGER PRIMARY KEY, name TEXT, amount REAL, flag INTEGER, note TEXT)")
        }
        return queue
    }

    /// Values keep their SQLite types, as GRDB's own `execute(arguments:)` binds them.
    @Test func rowAfterRowGoInWithTheirTypes() throws {
        let queue = try database()
        try queue.write { db in
            let insert = try RowInsert(db, sql: "INSERT INTO row VALUES (?, ?, ?, ?, ?)")
            try insert.insert(1, "Bruin Cheeseburger", 2.5, true, String?.none)
            try insert.insert(2, "Crème fraîche", Double?.none, false, "")
            try db.execute(sql: "INSERT INTO row VALUES (?, ?, ?, ?, ?)", arguments: [3, "Fries", 2.5, true, nil])
        }
        let rows = try queue.read { db in
            try Row.fetchAll(db, sql: """
                SELECT id, name, amount, typeof(amount), flag, typeof(flag), note, typeof(note) FROM row ORDER BY id
                """)
        }
        #expect(rows.count == 3)
        #expect(rows[0][1] as String == "Bruin Cheeseburger")
        #expect(rows[0][2] as Double == 2.5)
        #expect(rows[0][3] as String == "real")
        #expect(rows[0][4] as Int == 1)
        #expect(rows[0][5] as String == "integer")
        #expect(rows[0][7] as String == "null")
        #expect(rows[1][1] as String == "Crème fraîche")
        #expect(rows[1][3] as String == "null")
        #expect(rows[1][4] as Int == 0)
        #expect(rows[1][6] as String == "")
        #expect(rows[1][7] as String == "text")
        // The row GRDB bound itself has the same types as the first.
        #expect(rows[2][3] as String == rows[0][3] as String)
        #expect(rows[2][5] as String == rows[0][5] as String)
    }

    /// Text is bound with its length: every byte goes in, a NUL inside the text included (a
    /// C string would end there), and non-ASCII text stays as it was.
    @Test func textGoesInWhole() throws {
        let queue = try database()
        try queue.write { db in
            let insert = try RowInsert(db, sql: "INSERT INTO row VALUES (?, ?, ?, ?, ?)")
            try insert.insert(1, "a\u{0}b", 1.0, true, "Crème brûlée — ½")
        }
        let row = try #require(try queue.read { db in
            try Row.fetchOne(db, sql: "SELECT length(CAST(name AS BLOB)), hex(name), note FROM row")
        })
        #expect(row[0] as Int == 3)
        #expect(row[1] as String == "610062")
        #expect(row[2] as String == "Crème brûlée — ½")
    }

    /// A row with a value missing would otherwise keep the previous row's value in its place.
    @Test func aRowWithTooFewValuesIsRefused() throws {
        let queue = try database()
        try queue.write { db in
            let insert = try RowInsert(db, sql: "INSERT INTO row VALUES (?, ?, ?, ?, ?)")
            try insert.insert(1, "first", 1.0, true, "kept")
            #expect(throws: DatabaseError.self) {
                try insert.insert(2, "second", 1.0, true)
            }
        }
        #expect(try queue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM row") } == 1)
    }

    @Test func aRowWithTooManyValuesIsRefused() throws {
        let queue = try database()
        try queue.write { db in
            let insert = try RowInsert(db, sql: "INSERT INTO row VALUES (?, ?, ?, ?, ?)")
            let error = #expect(throws: DatabaseError.self) {
                try insert.insert(1, "first", 1.0, true, "note", "one too many")
            }
            #expect(error?.resultCode == .SQLITE_RANGE)
            try insert.insert(1, "first", 1.0, true, "note")
        }
        #expect(try queue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM row") } == 1)
    }

    @Test func aFailedRowSaysWhyAndTheNextOneStillGoesIn() throws {
        let queue = try database()
        try queue.write { db in
            let insert = try RowInsert(db, sql: "INSERT INTO row VALUES (?, ?, ?, ?, ?)")
            try insert.insert(1, "first", 1.0, true, "note")
            let error = #expect(throws: DatabaseError.self) {
                try insert.insert(1, "same id", 1.0, true, "note")
            }
            #expect(error?.resultCode == .SQLITE_CONSTRAINT)
            #expect(error?.message?.contains("UNIQUE constraint failed: row.id") == true)
            try insert.insert(2, "second", 1.0, true, "note")
        }
        #expect(try queue.read { db in try String.fetchAll(db, sql: "SELECT name FROM row ORDER BY id") }
                == ["first", "second"])
    }
}
