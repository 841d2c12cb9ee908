import Basics
import GRDB

extension SnapshotSchema {
    /// Migration v2: full-text search and the indexes analysts' questions need.
    ///
    /// Both search tables are FTS5 *external-content* tables, so the text is stored once (in
    /// `food` and `recipe`) and the index only holds tokens. `food_fts` reads `food` directly.
    /// A recipe's ingredients and tags live in other tables, so `recipe_fts` reads the view
    /// `v_recipe_search`, which gathers them into one row per recipe; the view's
    /// `recipe_rowid` is `recipe.rowid`, so a hit joins back with `recipe.rowid = recipe_fts.rowid`.
    ///
    /// The indexes are filled once the bulk write is done, not by triggers: a snapshot is written
    /// once and never modified, so triggers would only slow the write. `food_fts` is rebuilt
    /// (`SearchIndex`); `recipe_fts` is built beside the recipes as they are written
    /// (`RecipeSearchBuild`). The rowids they hold survive `VACUUM INTO` because the writer
    /// inserts each table once, in order, without deleting: rowids are 1…n with no gap, which is
    /// what a VACUUM that renumbers would give them anyway.
    static let v3Search = """
        CREATE VIRTUAL TABLE food_fts USING fts5(
            name, description, ingredients,
            content='food', tokenize='unicode61 remove_diacritics 2'
        );

        CREATE VIEW v_recipe_search AS
        SELECT r.rowid AS recipe_rowid, r.id AS recipe_id, r.name,
               (SELECT group_concat(ingredient_name, ', ') FROM (SELECT ingredient_name
                  FROM recipe_ingredient ri WHERE ri.recipe_id = r.id ORDER BY position)) AS ingredients,
               (SELECT group_concat(tag, ', ') FROM (SELECT tag
                  FROM recipe_tag rt WHERE rt.recipe_id = r.id ORDER BY tag)) AS tags,
               r.instructions
        FROM recipe r;

        CREATE VIRTUAL TABLE recipe_fts USING fts5(
            name, ingredients, tags, instructions,
            content='v_recipe_search', content_rowid='recipe_rowid',
            tokenize='unicode61 remove_diacritics 2'
        );

        CREATE INDEX food_by_name ON food(name);
        CREATE INDEX food_nutrient_by_nutrient_dv ON food_nutrient(nutrient_key, computed_dv_percent);
        CREATE INDEX hours_by_restaurant ON hours(restaurant, date);
        CREATE INDEX recipe_by_category ON recipe(category);
        CREATE INDEX recipe_by_area ON recipe(area);
        CREATE INDEX recipe_tag_by_tag ON recipe_tag(tag);
        """

    /// Migration v18: `recipe_fts` over the `recipe` table itself, declared `content="recipe"`
    /// as `food_fts` is, the spelling by which sqlite-utils and Datasette find a table's index
    /// (`sqlite-utils search SNAPSHOT recipe garlic`): an index over a view is found by neither.
    /// So a recipe row carries its ingredient names and tags as one text each, written with the
    /// row (`RecipeRows`); `v_recipe_search` reads them from there.
    static let v18RecipeSearch = """
        ALTER TABLE recipe ADD COLUMN ingredients TEXT;
        ALTER TABLE recipe ADD COLUMN tags TEXT;
        DROP TABLE recipe_fts;
        DROP VIEW v_recipe_search;
        \(SnapshotView.recipeSearch.sqlite);
        CREATE VIRTUAL TABLE recipe_fts USING fts5(
            name, ingredients, tags, instructions,
            content="recipe", tokenize='unicode61 remove_diacritics 2'
        );
        """
}

/// Fills a full-text index from its content once the data tables are written: `food_fts` for
/// every night that writes the food tables, `recipe_fts` for one without recipes (a night with
/// recipes builds it beside them, `RecipeSearchBuild`).
enum SearchIndex: String {
    case foods = "food_fts"
    case recipes = "recipe_fts"

    /// FTS5 gathers tokens in an in-memory hash and writes a segment each time the hash passes
    /// this size. The hash is most of what building an index holds in memory, and the recipes'
    /// index is built while the writer's own allocations are live (`RecipeSearchBuild`), so a
    /// full hash adds to whatever the writer holds at that moment, which depends on where the
    /// catalogue's size falls: at 8 MB, 50,000 and 100,000 recipes peaked 5–10 MB above 10,000
    /// or 300,000; at 2 MB, every size measured peaked within a few MB of the others. A smaller
    /// hash makes more segments, which FTS5 merges 16 at a time: the write stage took a tenth to
    /// a fifth longer at 50,000 and 100,000 recipes and about as long from 150,000 to 300,000,
    /// for an index of the same size, searched as fast (docs/performance.md, "twenty-third steps").
    static let tokenBufferBytes = 2 * 1024 * 1024

    /// No merging of segments while the index is built (`automerge` 0): a rebuild writes most
    /// segments once. Merging as they come is what made a smaller hash slow; without it, an
    /// 8 MB hash built 100,000 recipes' index as fast as a 32 MB one that merges. FTS5 still
    /// merges once a level holds `crisismerge` segments (16), so a snapshot's index stays a few
    /// segments (8 for 100,000 recipes), searched as fast as the 3 of a 32 MB hash. Both values
    /// are kept in the table's `_config`, where they only concern writers.
    static let automerge = 0

    /// This index's table declared again as a contentless one (`content=''`), for building its
    /// rows elsewhere (`RecipeSearchBuild`). The declaration is the snapshot's own, read from its
    /// schema with only its content option replaced, so the rows built are those of the columns,
    /// tokenizer and options of whichever migration declared the table last.
    func contentlessDeclaration(in db: Database) throws -> String {
        let table = rawValue
        let declared = try String.fetchOne(
            db, sql: "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?", arguments: [table])
        let content = /(?i)(?<before>[(,]\s*)content\s*=\s*(?:"[^"]*"|'[^']*'|\w+)/
        guard let declared, declared.matches(of: content).count == 1 else {
            // Only a migration of this build's own can get here, and the tests run every one.
            throw Failure(.snapshot, "the index \(table) cannot be built beside its rows: the schema declares it "
                          + "without exactly one content option (\(declared ?? "no such table")); a migration "
                          + "that declares it again must give it one")
        }
        return declared.replacing(content) { "\($0.before)content=''" }
    }

    func rebuild(_ db: Database) throws {
        let table = rawValue
        try db.execute(sql: "INSERT INTO \(table)(\(table), rank) VALUES('hashsize', ?), ('automerge', ?)",
                       arguments: [Self.tokenBufferBytes, Self.automerge])
        try db.execute(sql: "INSERT INTO \(table)(\(table)) VALUES('rebuild')")
    }
}
