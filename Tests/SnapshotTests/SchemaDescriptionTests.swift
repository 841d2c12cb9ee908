import Foundation
import GRDB
@testable import Snapshot
import Testing

/// The one description of the schema against the schema the migrations create, and against
/// docs/schema.md, which is generated from it.
@Suite struct SchemaDescriptionTests {
    /// Tables, views and FTS5 tables of a freshly migrated database with their columns, in
    /// declaration order; FTS5's own shadow tables and SQLite's internal ones are not part of
    /// the contract.
    private func actualSchema() throws -> [String: [String]] {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let staging = try StagingSnapshot(creatingAt: folder.appendingPathComponent("schema.sqlite"))
        defer { staging.discard() }
        let queue = try staging.queue
        return try queue.read { db in
            var schema: [String: [String]] = [:]
            let tables = try String.fetchAll(db, sql: """
                SELECT name FROM pragma_table_list WHERE schema = 'main' AND type <> 'shadow'
                AND name NOT LIKE 'sqlite_%'
                """)
            for table in tables {
                schema[table] = try String.fetchAll(db, sql: "SELECT name FROM pragma_table_info(?)", arguments: [table])
            }
            return schema
        }
    }

    @Test func everyTableViewAndColumnIsDescribedInOrderAndNothingElse() throws {
        let actual = try actualSchema()
        let described = SchemaDescription.current.tables
        #expect(Set(described.map(\.name)) == Set(actual.keys))
        #expect(described.count == Set(described.map(\.name)).count, "a table is described twice")
        for table in described {
            #expect(table.columns.map(\.name) == actual[table.name], "\(table.name)")
            #expect(!table.description.isEmpty, "\(table.name)")
            for column in table.columns {
                #expect(column.description.count > 3, "\(table.name).\(column.name)")
            }
        }
        // The FTS tables and views this issue adds are part of the contract.
        for name in ["food_fts", "recipe_fts", "v_recipe_search", "v_menu", "v_food_nutrition"] {
            #expect(actual[name] != nil, "\(name)")
        }
        #expect(actual["recipe_fts"] == ["name", "ingredients", "tags", "instructions"])
    }

    @Test func theSchemaDocumentIsTheGeneratedOne() throws {
        let document = try String(contentsOf: packageRoot.appendingPathComponent("docs/schema.md"), encoding: .utf8)
        let heading = "# Snapshot schema\n\n"
        #expect(document.hasPrefix(heading))
        #expect(String(document.dropFirst(heading.count)) == SchemaDescription.current.markdown(),
                "docs/schema.md is stale: regenerate it with `commissary schema`")
    }

    @Test func markdownNamesEveryTableAndColumnAndTheVersion() {
        let text = SchemaDescription.current.markdown(version: 7)
        #expect(text.contains("holds the schema version (7)"))
        #expect(text.contains("**`recipe_fts`**"))
        #expect(text.contains("| `computed_dv_percent` |"))
        #expect(text.contains("### Full-text search (FTS5)"))
    }
}

let packageRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
