import Basics
import Foundation
import GRDB

/// The recipes' full-text index (`recipe_fts`), built on the thread `WorkAhead` shares while the
/// writer inserts the recipes, then copied into the snapshot.
///
/// A `rebuild` reads every recipe back once the rows are in and tokenizes them on the writer's
/// thread: for 10,000 recipes about 0.3 s of a 0.8 s write stage, one core busy and the other
/// idle (perf). Here each recipe's texts go, as the writer inserts its row, to a contentless FTS5
/// table of the same columns, tokenizer and settings in a scratch database of its own, a batch
/// at a time on the other thread, in one transaction. Once the last batch is in, that table's
/// storage (FTS5 keeps an index in four ordinary tables beside it, the same for a contentless
/// table as for one over `recipe`) replaces the snapshot's. The rows are those a `rebuild`
/// writes from the same texts, down to the byte but for the counter of settings changes at the
/// head of the index's structure record, which FTS5 reads from the same record; the tests
/// compare the two and run FTS5's own check of the index against `recipe`. The price is memory:
/// FTS5's token hash is held while the writer's own allocations are live, where the rebuild
/// made it out of memory they had freed; that hash is kept small for it
/// (`SearchIndex.tokenBufferBytes`).
final class RecipeSearchBuild {
    /// A recipe's row in the index: its `recipe.rowid` and the four texts `recipe_fts` indexes.
    struct Entry: Sendable {
        var rowid: Int64
        var name: String
        var ingredients: String?
        var tags: String?
        var instructions: String
    }

    /// Recipes handed on at a time: few enough that one batch held while the next is gathered
    /// weighs little (a recipe's texts are a few kilobytes), enough that handing on costs little.
    static let batchSize = 256

    private let file: URL
    private let side: SideIndex
    private var gathered: [Entry] = []
    /// The last piece of work given to the other thread: opening the index, then each batch.
    private var lastPiece: WorkAhead<Void>

    /// `file`: the scratch database, made anew; `declaration`: the statement that makes the
    /// contentless table (`SearchIndex.contentlessDeclaration`, from the snapshot's own).
    init(file: URL, declaration: String) throws {
        self.file = file
        try? FileManager.default.removeItem(at: file)
        let side = try SideIndex(file: file)
        self.side = side
        lastPiece = WorkAhead { try side.begin(declaration) }
    }

    deinit {
        // A write that failed part way leaves a batch on the other thread; it ends before the file goes.
        _ = try? lastPiece.value()
        try? FileManager.default.removeItem(at: file)
    }

    /// Takes a recipe's row as the writer inserts it, in rowid order.
    func add(_ entry: Entry) throws {
        gathered.append(entry)
        if gathered.count == Self.batchSize { try handOn() }
    }

    /// Gives the gathered batch to the other thread once the one before is in, so that at most
    /// two batches are held whatever the catalogue's size. A failure of the other thread's is
    /// thrown here, at the next batch.
    private func handOn() throws {
        try lastPiece.value()
        let batch = gathered
        gathered = []
        let side = side
        lastPiece = WorkAhead { try side.insert(batch) }
    }

    /// Waits for the index to be complete and puts it in place of `db`'s `recipe_fts`, inside
    /// the writer's transaction.
    func copy(into db: Database) throws {
        try handOn()
        try lastPiece.value()
        try side.copy(into: db)
    }
}

/// The scratch database the index is built in, touched by one thread at a time: the pieces of
/// work run one after another on `WorkAhead`'s thread, and the writer copies the index out only
/// once the last one has ended.
private final class SideIndex: Sendable {
    private let queue: DatabaseQueue

    init(file: URL) throws {
        var configuration = Configuration()
        // One transaction spans every batch: FTS5 writes its gathered tokens out at each commit,
        // and a commit per batch would make a segment of each.
        configuration.allowsUnsafeTransactions = true
        queue = try DatabaseQueue(path: file.path, configuration: configuration)
    }

    /// The contentless table made by `declaration`, with the settings `SearchIndex.rebuild`
    /// gives the snapshot's indexes, and the transaction every batch goes into.
    func begin(_ declaration: String) throws {
        try queue.inDatabase { db in
            // Scratch: a crash loses nothing that the recipes themselves do not still have.
            try db.execute(sql: "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF")
            try db.execute(sql: declaration)
            try db.execute(sql: "BEGIN")
            try db.execute(sql: "INSERT INTO recipe_fts(recipe_fts, rank) VALUES('hashsize', ?), ('automerge', ?)",
                           arguments: [SearchIndex.tokenBufferBytes, SearchIndex.automerge])
        }
    }

    func insert(_ batch: [RecipeSearchBuild.Entry]) throws {
        try queue.inDatabase { db in
            let row = try RowInsert(db, sql: """
                INSERT INTO recipe_fts (rowid, name, ingredients, tags, instructions) VALUES (?, ?, ?, ?, ?)
                """)
            for entry in batch {
                try row.insert(Int(entry.rowid), entry.name, entry.ingredients, entry.tags, entry.instructions)
            }
        }
    }

    /// Commits the index and copies its four tables over `db`'s, emptied first (a staging
    /// database that continues the previous snapshot holds its index).
    func copy(into db: Database) throws {
        try queue.inDatabase { side in
            try side.commit()
            for table in Self.storage {
                try db.execute(sql: table.empty)
                try RowInsert(db, sql: table.insert).insertEveryRow(of: side.makeStatement(sql: table.select))
            }
        }
    }

    /// FTS5's storage of an index, by table: each emptied, read and written with its own columns.
    private static let storage: [(empty: String, select: String, insert: String)] = [
        ("DELETE FROM recipe_fts_data", "SELECT id, block FROM recipe_fts_data",
         "INSERT INTO recipe_fts_data (id, block) VALUES (?, ?)"),
        ("DELETE FROM recipe_fts_idx", "SELECT segid, term, pgno FROM recipe_fts_idx",
         "INSERT INTO recipe_fts_idx (segid, term, pgno) VALUES (?, ?, ?)"),
        ("DELETE FROM recipe_fts_docsize", "SELECT id, sz FROM recipe_fts_docsize",
         "INSERT INTO recipe_fts_docsize (id, sz) VALUES (?, ?)"),
        ("DELETE FROM recipe_fts_config", "SELECT k, v FROM recipe_fts_config",
         "INSERT INTO recipe_fts_config (k, v) VALUES (?, ?)"),
    ]
}
