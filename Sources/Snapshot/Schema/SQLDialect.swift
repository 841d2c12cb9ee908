/// The databases a snapshot's views are made in: SQLite (the snapshot) and PostgreSQL (its copy
/// there, PostgresTarget). A view is written once (`SnapshotView`); these are the few pieces that
/// SQLite's text does not run as it is in PostgreSQL, each spelt for both. The SQLite spelling is
/// the text published snapshots hold in `sqlite_master`, so it never changes.
///
/// Truth values are `boolean` in PostgreSQL, as the tables' flags are there (SQLite's 0/1):
/// `WHERE is_vegan` reads the same in both databases, and a count of them is
/// `sum(is_vegan::int)`, which keeps SQLite's NULL for a group with none known.
public enum SQLDialect: Sendable {
    case sqlite
    case postgresql

    /// The PostgreSQL function `text(ofReal:)` calls, made before the views; the only function a
    /// publish makes in a snapshot's schema.
    public static let realTextFunction = "real_text"

    /// A real as SQLite prints it in text (`5.0`, `0.25`), so that messages read the same in
    /// both databases.
    public static let realTextDefinition = """
        CREATE FUNCTION \(realTextFunction)(value double precision) RETURNS text LANGUAGE sql IMMUTABLE AS $$
            SELECT CASE WHEN value = trunc(value) AND abs(value) < 1e15 THEN trunc(value)::bigint::text || '.0'
                        ELSE value::text END
        $$
        """

    /// How many rows of a group `condition` holds for: PostgreSQL sums no `boolean`.
    func trueCount(_ condition: String) -> String {
        switch self {
        case .sqlite: "sum(\(condition))"
        case .postgresql: "sum((\(condition))::int)"
        }
    }

    /// `value` rounded to `digits` decimals: PostgreSQL rounds to decimals only a `numeric`, and
    /// the column stays a double as in SQLite.
    func round(_ value: String, _ digits: Int) -> String {
        switch self {
        case .sqlite: "round(\(value), \(digits))"
        case .postgresql: "round((\(value))::numeric, \(digits))::double precision"
        }
    }

    /// A real joined into text: SQLite prints `5.0` where PostgreSQL would print `5`.
    func text(ofReal value: String) -> String {
        switch self {
        case .sqlite: value
        case .postgresql: "\(Self.realTextFunction)(\(value))"
        }
    }

    /// The alias PostgreSQL requires of a subquery in FROM; SQLite's views have none.
    func alias(ofSubquery name: String) -> String {
        switch self {
        case .sqlite: ""
        case .postgresql: " AS \(name)"
        }
    }

    /// A food's (`f`) codes in order, separated by spaces: SQLite orders what `group_concat`
    /// joins only through a subquery, PostgreSQL's `string_agg` orders itself.
    var foodCodes: String {
        switch self {
        case .sqlite:
            """
            (SELECT group_concat(code, ' ') FROM (SELECT code FROM food_code fc
                      WHERE fc.food_id = f.id ORDER BY code))
            """
        case .postgresql: "(SELECT string_agg(fc.code, ' ' ORDER BY fc.code) FROM food_code fc WHERE fc.food_id = f.id)"
        }
    }
}
