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

    /// A day from text (`2025-04-09`): SQLite keeps days as text, PostgreSQL as `date`.
    func date(ofText value: String) -> String {
        switch self {
        case .sqlite: value
        case .postgresql: "CAST(\(value) AS date)"
        }
    }

    /// The whole days from the day `start` to the day `end`.
    func daysBetween(_ start: String, _ end: String) -> String {
        switch self {
        case .sqlite: "CAST(julianday(\(end)) - julianday(\(start)) AS INTEGER)"
        case .postgresql: "(\(end) - \(start))"
        }
    }

    /// The day `days` (a whole number, possibly a real that holds one) after the day `date`.
    func adding(days: String, to date: String) -> String {
        switch self {
        case .sqlite: "date(\(date), '+' || CAST(\(days) AS INTEGER) || ' days')"
        case .postgresql: "(\(date) + CAST(\(days) AS integer))"
        }
    }

    /// A number as a double: PostgreSQL's `real` is single precision, and its `avg` of integers
    /// a `numeric`.
    func real(_ value: String) -> String {
        switch self {
        case .sqlite: "CAST(\(value) AS REAL)"
        case .postgresql: "CAST(\(value) AS double precision)"
        }
    }

    /// An integer as text, to join into a list.
    func text(ofInteger value: String) -> String {
        switch self {
        case .sqlite: "CAST(\(value) AS TEXT)"
        case .postgresql: "CAST(\(value) AS text)"
        }
    }

    /// The text values of a group joined by `separator`: SQLite's `group_concat` in the order the
    /// rows come (an ordered subquery's, by bytes), PostgreSQL's `string_agg` in the order it is
    /// given, by bytes too (`C`) rather than the server's locale, so both lists read the same.
    func joined(_ value: String, separator: String) -> String {
        switch self {
        case .sqlite: "group_concat(\(value), '\(separator)')"
        case .postgresql: "string_agg(\(value), '\(separator)' ORDER BY \(value) COLLATE \"C\")"
        }
    }
}
