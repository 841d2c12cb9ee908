import GRDB

/// The snapshot contract (docs/schema.md), as GRDB migrations.
///
/// Each migration is append-only: a published snapshot records its schema version in
/// `PRAGMA user_version` (which survives `VACUUM INTO`), so readers can tell which contract a
/// file follows. Later issues add tables as new migrations, never by editing an old one.
public enum SnapshotSchema {
    /// The version written to `PRAGMA user_version`: the number of migrations applied.
    public static var version: Int { migrations.count }

    /// Tables that hold data (not housekeeping), in the order rows are written.
    public static let dataTables = [
        "service_day", "meal", "restaurant", "section", "dietary_code", "food", "menu_item",
        "nutrient", "food_nutrient", "food_code", "term", "code_term", "hours",
        "category", "area", "tag", "ingredient", "recipe", "recipe_tag", "recipe_ingredient",
        "meal_plan", "swipe_balance", "food_nutrient_agreement", "food_flag", "food_label", "food_label_nutrient",
        "place", "food_component", "food_estimate", "food_estimate_nutrient", "food_estimate_line",
    ]

    /// Housekeeping tables, underscore-prefixed as Datasette expects.
    public static let housekeepingTables = ["_meta", "_runs", "_checks", "_sources", "_stale", "_table_keys", "_day_rows"]

    static let migrations: [(name: String, sql: String)] = [
        ("v1-food-hierarchy-and-recipes", v1),
        ("v2-meal-plans-and-swipes", v2Swipes),
        ("v3-search-and-indexes", v3Search),
        ("v4-nutrition-agreement-and-views", v4Nutrition),
        ("v5-planned-portions", "ALTER TABLE menu_item ADD COLUMN planned_portions INTEGER;"),
        ("v6-stale-partitions", v6Stale),
        ("v7-one-vocabulary", v7Vocabulary),
        ("v8-tools-find-search-and-codes", v8ToolsFindSearch),
        ("v9-printed-bounds-and-servings", v9PrintedBounds),
        ("v10-sides", v10Sides),
        ("v11-label-versions", v11LabelVersions),
        ("v12-places", v12Places),
        ("v13-table-keys", v13TableKeys),
        ("v14-menu-nutrition-long-form", v14MenuNutritionLongForm),
        ("v15-day-rows", v15DayRows),
        ("v16-label-basis-and-composition", v16LabelBasis),
        ("v17-campuses", v17Campuses),
        ("v18-recipe-search-over-recipe", v18RecipeSearch),
        ("v19-nutrition-estimates", v19Estimates),
        ("v20-estimate-reason-codes", v20ReasonCodes),
        ("v21-place-time-zones", v21PlaceTimeZones),
        ("v22-food-history", v22FoodHistory),
        ("v23-allergen-presence", v23AllergenPresence),
        ("v24-portion-served", v24PortionServed),
        ("v25-day-items-digest", v25DayItems),
        ("v26-sides-by-dish", v26SidesByDish),
        ("v27-food-history-in-one-pass", v27FoodHistoryInOnePass),
    ]

    /// The sides served with each dish, found without reading every item. Few items are sides,
    /// so the index holds those alone; with it, every reference of `menu_item` leads an index,
    /// and publishing checks them by the distinct values each holds (`ForeignKeyCheck`) rather
    /// than item by item.
    static let v26SidesByDish = """
        CREATE INDEX menu_item_by_served_with ON menu_item(served_with_id) WHERE served_with_id IS NOT NULL;
        """

    /// Each day's items as a reader groups them (meal, restaurant, section, food and item names),
    /// digested apart from how a build writes them: two snapshots of two builds tell which days
    /// serve the same items without comparing them (`ReportQueries.changes`).
    static let v25DayItems = "ALTER TABLE _day_rows ADD COLUMN items_sha256 TEXT;"

    /// Hours are printed on the place's own clock: its IANA zone lets a reader compare them with
    /// an instant (a feed, `near --open-at`) instead of assuming the reader's zone. Places now
    /// come from platforms too (Bon Appétit's cafés answer), which name the zone.
    static let v21PlaceTimeZones = "ALTER TABLE place ADD COLUMN time_zone TEXT;"

    /// Campuses side by side: a restaurant is its name on its campus, so two campuses' "Commons"
    /// are two rows (a restaurant without a campus is keyed by its name alone, as before), and
    /// hours, `v_menu` and `v_menu_macros` say the campus. SQLite drops a UNIQUE constraint only
    /// by making the table again; `legacy_alter_table` lets the new table take the old one's name
    /// without rewriting the views and references that name it, which then read the new table.
    static let v17Campuses = """
        PRAGMA legacy_alter_table = ON;
        CREATE TABLE restaurant_v17 (
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL,
            place_name TEXT REFERENCES place(name),
            campus TEXT,
            UNIQUE (campus, name)
        );
        INSERT INTO restaurant_v17 (id, name, place_name) SELECT id, name, place_name FROM restaurant;
        DROP TABLE restaurant;
        ALTER TABLE restaurant_v17 RENAME TO restaurant;
        PRAGMA legacy_alter_table = OFF;
        ALTER TABLE hours ADD COLUMN campus TEXT;
        DROP VIEW v_menu;
        \(SnapshotView.menu.sqlite);
        DROP VIEW v_menu_macros;
        \(SnapshotView.menuMacros(campus: true).sqlite);
        """

    /// Each table's stable key, so a client applying a change set knows how rows are matched;
    /// ids of days, meals and menu items say where the row is (`MenuWriter`), so they stay. A
    /// menu item's id no longer follows its place on the page, so `v_menu` says the page's order
    /// itself, through an index that gives it without sorting.
    static let v13TableKeys = """
        CREATE TABLE _table_keys (
            table_name TEXT PRIMARY KEY,
            key_columns TEXT NOT NULL,          -- JSON array; [] = the whole row
            position INTEGER NOT NULL UNIQUE    -- parents first
        );
        DROP INDEX menu_item_by_meal;
        CREATE INDEX menu_item_by_meal ON menu_item(meal_id, position);
        DROP VIEW v_menu;
        CREATE VIEW v_menu AS
        SELECT d.date, d.weekday, m.name AS meal, r.name AS restaurant, s.name AS section,
               mi.name AS item, f.id AS food_id, f.name AS food, mi.portion,
               (SELECT group_concat(code, ' ') FROM (SELECT code FROM food_code fc
                  WHERE fc.food_id = f.id ORDER BY code)) AS codes,
               dish.name AS served_with
        FROM menu_item mi
        JOIN meal m ON m.id = mi.meal_id
        JOIN service_day d ON d.id = m.service_day_id
        JOIN section s ON s.id = mi.section_id
        JOIN restaurant r ON r.id = s.restaurant_id
        JOIN food f ON f.id = mi.food_id
        LEFT JOIN menu_item dish ON dish.id = mi.served_with_id
        ORDER BY mi.meal_id, mi.position;
        """

    /// Dining locations as data (the pipeline's places file): kind, address and coordinates, and
    /// each restaurant linked to its place, so apps can sort halls by distance.
    static let v12Places = """
        CREATE TABLE place (
            name TEXT PRIMARY KEY,
            campus TEXT,
            kind TEXT,
            address TEXT,
            latitude REAL,
            longitude REAL,
            coordinates_source TEXT
        ) WITHOUT ROWID;
        ALTER TABLE restaurant ADD COLUMN place_name TEXT REFERENCES place(name);
        """

    /// A side is a menu item of its own, linked to the dish it is served with; `v_menu` names
    /// that dish, so a filter on one item's marks never takes in another's.
    static let v10Sides = """
        ALTER TABLE menu_item ADD COLUMN served_with_id INTEGER REFERENCES menu_item(id);
        DROP VIEW v_menu;
        CREATE VIEW v_menu AS
        SELECT d.date, d.weekday, m.name AS meal, r.name AS restaurant, s.name AS section,
               mi.name AS item, f.id AS food_id, f.name AS food, mi.portion,
               (SELECT group_concat(code, ' ') FROM (SELECT code FROM food_code fc
                  WHERE fc.food_id = f.id ORDER BY code)) AS codes,
               dish.name AS served_with
        FROM menu_item mi
        JOIN meal m ON m.id = mi.meal_id
        JOIN service_day d ON d.id = m.service_day_id
        JOIN section s ON s.id = mi.section_id
        JOIN restaurant r ON r.id = s.restaurant_id
        JOIN food f ON f.id = mi.food_id
        LEFT JOIN menu_item dish ON dish.id = mi.served_with_id;
        """

    /// Amounts some platforms print as a bound or a mark rather than a number ("< 1", "0+",
    /// "-"): kept as printed, with the bound as a number, never as `amount`; and a serving's
    /// amount and unit read from its printed text, so servings compare as numbers.
    static let v9PrintedBounds = """
        ALTER TABLE food_nutrient ADD COLUMN printed_amount TEXT;
        ALTER TABLE food_nutrient ADD COLUMN amount_below REAL;
        ALTER TABLE food_nutrient ADD COLUMN amount_at_least REAL;
        ALTER TABLE food ADD COLUMN serving_amount REAL;
        ALTER TABLE food ADD COLUMN serving_unit TEXT;
        DROP VIEW v_food_nutrition;
        CREATE VIEW v_food_nutrition AS
        SELECT f.id AS food_id, f.name AS food, f.serving_size, f.calories,
               n.key AS nutrient_key, n.name AS nutrient, fn.amount, fn.unit,
               fn.printed_dv_percent, fn.computed_dv_percent, fn.dv_standard,
               a.declared_dv_percent, a.agrees AS dv_agrees,
               (SELECT count(*) FROM food_flag fl WHERE fl.food_id = f.id) AS food_flags,
               fn.printed_amount, fn.amount_below, fn.amount_at_least
        FROM food f
        JOIN food_nutrient fn ON fn.food_id = f.id
        JOIN nutrient n ON n.key = fn.nutrient_key
        LEFT JOIN food_nutrient_agreement a ON a.food_id = fn.food_id AND a.nutrient_key = fn.nutrient_key;
        """

    /// What analysts' tools expect: `food_fts` declared with `content="food"`, the spelling
    /// sqlite-utils and Datasette look for to find a table's search index without metadata;
    /// the week number beside its label in `v_swipe_table`, so weeks sort as numbers; and one
    /// row per menu item and code, with the code's meaning, to join on.
    static let v8ToolsFindSearch = """
        DROP TABLE food_fts;
        CREATE VIRTUAL TABLE food_fts USING fts5(
            name, description, ingredients,
            content="food", tokenize='unicode61 remove_diacritics 2'
        );
        DROP VIEW v_swipe_table;
        \(SnapshotView.swipeTable.sqlite);
        \(SnapshotView.menuCode(presence: false).sqlite);
        """

    /// The one vocabulary of allergens and diets, and what each source's code means in it.
    static let v7Vocabulary = """
        CREATE TABLE term (
            name TEXT PRIMARY KEY,              -- milk, tree_nuts, vegan, ...
            kind TEXT NOT NULL CHECK (kind IN ('allergen', 'diet', 'sustainability')),
            label TEXT NOT NULL
        );
        CREATE TABLE code_term (
            code TEXT NOT NULL REFERENCES dietary_code(code),
            term TEXT NOT NULL REFERENCES term(name),
            PRIMARY KEY (code, term)
        ) WITHOUT ROWID;
        \(SnapshotView.foodTerm(presence: false).sqlite);
        """

    /// The digest of each service day's rows (`DayRows`), which the next run compares to keep
    /// the days that did not change instead of writing them again.
    static let v15DayRows = """
        CREATE TABLE _day_rows (
            date TEXT PRIMARY KEY,              -- YYYY-MM-DD
            rows_sha256 TEXT NOT NULL
        );
        """

    /// Stale partitions, and `stale` as a check severity (SQLite changes a CHECK constraint
    /// only by making the table again).
    static let v6Stale = """
        CREATE TABLE _stale (
            source TEXT NOT NULL,
            partition TEXT NOT NULL,
            kept_fetched_at TEXT NOT NULL,
            kept_run_id TEXT NOT NULL,
            reason TEXT NOT NULL,
            PRIMARY KEY (source, partition)
        );
        CREATE TABLE _checks_v6 (
            run_id TEXT NOT NULL,
            name TEXT NOT NULL,
            severity TEXT NOT NULL CHECK (severity IN ('error', 'warning', 'info', 'stale')),
            passed INTEGER NOT NULL,
            value REAL,
            message TEXT NOT NULL
        );
        INSERT INTO _checks_v6 SELECT * FROM _checks;
        DROP TABLE _checks;
        ALTER TABLE _checks_v6 RENAME TO _checks;
        """

    static func migrator() -> DatabaseMigrator {
        var migrator = DatabaseMigrator()
        for (index, migration) in migrations.enumerated() {
            migrator.registerMigration(migration.name) { db in
                try db.execute(sql: migration.sql)
                try db.execute(sql: "PRAGMA user_version = \(index + 1)")
            }
        }
        return migrator
    }

    private static let v1 = """
        CREATE TABLE service_day (
            id INTEGER PRIMARY KEY,
            date TEXT NOT NULL UNIQUE,          -- YYYY-MM-DD, local to the dining hall
            weekday INTEGER NOT NULL            -- ISO: 1 = Monday ... 7 = Sunday
        );
        CREATE TABLE meal (
            id INTEGER PRIMARY KEY,
            service_day_id INTEGER NOT NULL REFERENCES service_day(id),
            name TEXT NOT NULL,
            position INTEGER NOT NULL,
            UNIQUE (service_day_id, name)
        );
        CREATE TABLE restaurant (
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL UNIQUE
        );
        CREATE TABLE section (
            id INTEGER PRIMARY KEY,
            restaurant_id INTEGER NOT NULL REFERENCES restaurant(id),
            name TEXT NOT NULL,
            UNIQUE (restaurant_id, name)
        );
        CREATE TABLE dietary_code (
            code TEXT PRIMARY KEY,
            label TEXT NOT NULL,
            kind TEXT NOT NULL CHECK (kind IN ('dietary', 'allergen', 'sustainability', 'unknown'))
        );
        CREATE TABLE food (
            id TEXT PRIMARY KEY,                -- source:recipe_id
            source TEXT NOT NULL,
            recipe_id TEXT NOT NULL,
            name TEXT NOT NULL,
            description TEXT,
            serving_size TEXT,
            calories REAL,
            ingredients TEXT,
            allergens TEXT,                     -- comma-separated, as printed
            has_page INTEGER NOT NULL,          -- 1 when the food's own page was read
            UNIQUE (source, recipe_id)
        );
        CREATE TABLE menu_item (
            id INTEGER PRIMARY KEY,
            meal_id INTEGER NOT NULL REFERENCES meal(id),
            section_id INTEGER NOT NULL REFERENCES section(id),
            food_id TEXT NOT NULL REFERENCES food(id),
            position INTEGER NOT NULL,
            name TEXT NOT NULL,                 -- as printed on this menu
            portion TEXT,
            description TEXT
        );
        CREATE INDEX menu_item_by_meal ON menu_item(meal_id);
        CREATE INDEX menu_item_by_food ON menu_item(food_id);
        CREATE INDEX menu_item_by_section ON menu_item(section_id);
        CREATE TABLE nutrient (
            key TEXT PRIMARY KEY,
            name TEXT NOT NULL,
            unit TEXT
        );
        CREATE TABLE food_nutrient (
            food_id TEXT NOT NULL REFERENCES food(id),
            nutrient_key TEXT NOT NULL REFERENCES nutrient(key),
            amount REAL,
            unit TEXT,
            printed_dv_percent REAL,
            computed_dv_percent REAL,
            dv_standard TEXT,
            PRIMARY KEY (food_id, nutrient_key)
        ) WITHOUT ROWID;
        CREATE INDEX food_nutrient_by_nutrient ON food_nutrient(nutrient_key, amount);
        CREATE TABLE food_code (
            food_id TEXT NOT NULL REFERENCES food(id),
            code TEXT NOT NULL REFERENCES dietary_code(code),
            PRIMARY KEY (food_id, code)
        ) WITHOUT ROWID;
        CREATE INDEX food_code_by_code ON food_code(code);
        CREATE TABLE hours (
            id INTEGER PRIMARY KEY,
            restaurant TEXT NOT NULL,           -- as the hours page spells it
            date TEXT,
            meal TEXT NOT NULL,
            opens TEXT,
            closes TEXT,
            is_closed INTEGER NOT NULL,
            note TEXT
        );
        CREATE INDEX hours_by_date ON hours(date, restaurant);

        CREATE TABLE category (
            name TEXT PRIMARY KEY,
            description TEXT,
            thumbnail_url TEXT
        );
        CREATE TABLE area (name TEXT PRIMARY KEY);
        CREATE TABLE tag (name TEXT PRIMARY KEY);
        CREATE TABLE ingredient (
            key TEXT PRIMARY KEY,               -- case and spacing folded
            name TEXT NOT NULL                  -- the first spelling seen
        );
        CREATE TABLE recipe (
            id TEXT PRIMARY KEY,                -- source:id
            source TEXT NOT NULL,
            source_id TEXT NOT NULL,
            name TEXT NOT NULL,
            alternate_name TEXT,
            category TEXT REFERENCES category(name),
            area TEXT REFERENCES area(name),
            instructions TEXT NOT NULL,         -- steps joined by newlines
            thumbnail_url TEXT,
            youtube_url TEXT,
            source_url TEXT,
            modified_at TEXT,
            UNIQUE (source, source_id)
        );
        CREATE TABLE recipe_tag (
            recipe_id TEXT NOT NULL REFERENCES recipe(id),
            tag TEXT NOT NULL REFERENCES tag(name),
            PRIMARY KEY (recipe_id, tag)
        ) WITHOUT ROWID;
        CREATE TABLE recipe_ingredient (
            recipe_id TEXT NOT NULL REFERENCES recipe(id),
            position INTEGER NOT NULL,
            ingredient_key TEXT NOT NULL REFERENCES ingredient(key),
            ingredient_name TEXT NOT NULL,      -- this recipe's spelling
            measure_raw TEXT,
            measure_kind TEXT NOT NULL,
            quantity REAL,
            quantity_numerator INTEGER,
            quantity_denominator INTEGER,
            quantity_max REAL,
            unit TEXT,
            unit_system TEXT,
            confidence REAL NOT NULL,
            PRIMARY KEY (recipe_id, position)
        ) WITHOUT ROWID;
        CREATE INDEX recipe_ingredient_by_ingredient ON recipe_ingredient(ingredient_key);

        CREATE TABLE _meta (key TEXT PRIMARY KEY, value TEXT);
        CREATE TABLE _runs (
            run_id TEXT PRIMARY KEY,
            pipeline TEXT NOT NULL,
            started_at TEXT NOT NULL,
            code_version TEXT NOT NULL,
            arguments TEXT NOT NULL,
            partitions INTEGER NOT NULL
        );
        CREATE TABLE _checks (
            run_id TEXT NOT NULL,
            name TEXT NOT NULL,
            severity TEXT NOT NULL CHECK (severity IN ('error', 'warning', 'info')),
            passed INTEGER NOT NULL,
            value REAL,
            message TEXT NOT NULL
        );
        CREATE TABLE _sources (
            url TEXT NOT NULL,
            fetched_at TEXT NOT NULL,
            status INTEGER NOT NULL,
            sha256 TEXT NOT NULL,
            charset TEXT,
            bytes INTEGER NOT NULL,
            PRIMARY KEY (url, sha256)
        );

        CREATE VIEW v_menu AS
        SELECT d.date, d.weekday, m.name AS meal, r.name AS restaurant, s.name AS section,
               mi.name AS item, f.id AS food_id, f.name AS food, mi.portion,
               (SELECT group_concat(code, ' ') FROM (SELECT code FROM food_code fc
                  WHERE fc.food_id = f.id ORDER BY code)) AS codes
        FROM menu_item mi
        JOIN meal m ON m.id = mi.meal_id
        JOIN service_day d ON d.id = m.service_day_id
        JOIN section s ON s.id = mi.section_id
        JOIN restaurant r ON r.id = s.restaurant_id
        JOIN food f ON f.id = mi.food_id;

        CREATE VIEW v_food_nutrition AS
        SELECT f.id AS food_id, f.name AS food, f.serving_size, f.calories,
               n.key AS nutrient_key, n.name AS nutrient, fn.amount, fn.unit,
               fn.printed_dv_percent, fn.computed_dv_percent, fn.dv_standard
        FROM food f
        JOIN food_nutrient fn ON fn.food_id = f.id
        JOIN nutrient n ON n.key = fn.nutrient_key;
        """
}
