import Basics
import GRDB
import Testing
@testable import Snapshot

/// The recipes' index is built in a scratch database as a contentless table declared from the
/// snapshot's own declaration (`SearchIndex.contentlessDeclaration`): the same columns, tokenizer
/// and options, only the content option replaced.
@Suite struct SearchDeclarationTests {
    private func declaration(of index: SearchIndex, after sql: String? = nil) throws -> String {
        let queue = try DatabaseQueue()
        if let sql {
            try queue.write { db in try db.execute(sql: sql) }
        } else {
            try SnapshotSchema.migrator().migrate(queue)
        }
        return try queue.read { db in try index.contentlessDeclaration(in: db) }
    }

    private func words(_ sql: String) -> String {
        sql.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// Migration v18 declares `recipe_fts` with `content="recipe"`, v8 `food_fts` with
    /// `content="food"`; the rest of each declaration is kept as written.
    @Test func theSnapshotsOwnDeclarationsLoseOnlyTheirContent() throws {
        #expect(words(try declaration(of: .recipes)) == """
            CREATE VIRTUAL TABLE recipe_fts USING fts5( name, ingredients, tags, instructions, \
            content='', tokenize='unicode61 remove_diacritics 2' )
            """)
        #expect(words(try declaration(of: .foods)) == """
            CREATE VIRTUAL TABLE food_fts USING fts5( name, description, ingredients, \
            content='', tokenize='unicode61 remove_diacritics 2' )
            """)
    }

    /// The option is found whatever its case and quoting, and `content_rowid` is left alone; the
    /// contentless table made from it accepts rows by rowid.
    @Test func anyContentOptionIsReplacedAndTheResultMakesATable() throws {
        let made = try declaration(of: .recipes, after: """
            CREATE VIEW v AS SELECT 1 AS k, 'x' AS name;
            CREATE VIRTUAL TABLE recipe_fts USING fts5(name, CONTENT = v, content_rowid='k');
            """)
        #expect(made == "CREATE VIRTUAL TABLE recipe_fts USING fts5(name, content='', content_rowid='k')")
        let scratch = try DatabaseQueue()
        try scratch.write { db in
            try db.execute(sql: made)
            try db.execute(sql: "INSERT INTO recipe_fts (rowid, name) VALUES (7, 'Kedgeree')")
            #expect(try Int.fetchOne(db, sql: "SELECT rowid FROM recipe_fts WHERE recipe_fts MATCH 'kedgeree'") == 7)
        }
    }

    /// A declaration with no content option, or no table at all, is a schema this build cannot
    /// build the index beside: it says so rather than build an index of other options.
    @Test func aDeclarationWithoutOneContentOptionIsRefused() throws {
        let none = try #require(throws: Failure.self) {
            try declaration(of: .recipes, after: "CREATE VIRTUAL TABLE recipe_fts USING fts5(name, tokenize='porter')")
        }
        #expect(none.code == .snapshot)
        #expect(none.message.contains("tokenize='porter'"), "\(none.message)")
        let missing = try #require(throws: Failure.self) {
            try declaration(of: .recipes, after: "CREATE TABLE recipe (name TEXT)")
        }
        #expect(missing.message.contains("no such table"), "\(missing.message)")
    }
}
