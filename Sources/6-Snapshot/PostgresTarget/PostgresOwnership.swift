import Basics
import Foundation
import Snapshot

/// Which schemas are Commissary's to rename and drop. A publish renames the served schema aside,
/// drops a building schema a killed run left, and retention drops old nights: done to a schema
/// an application made (`public`, or one that happens to share the configured name), each of
/// those destroys data that is not ours. So every schema Commissary creates carries a mark, a
/// comment that starts with `mark`, and nothing is renamed or dropped without it.
///
/// Schemas published by versions before the mark carry none; one is taken as ours, and marked,
/// only when it holds no object but relations (and the views' one function) and is empty or every table in it is one a publish makes (those its own
/// `_table_keys` lists, and the search tables; for a change feed, `run` and `change` both), so
/// an application's table in it keeps it out of our hands.
enum PostgresOwnership {
    static let mark = "Commissary snapshot schema"
    static let feedMark = "Commissary change feed"

    /// The comment a schema Commissary creates is given.
    static func comment(on schema: String, feed: Bool = false) -> String {
        let text = feed
            ? "\(feedMark): what changed each night in the schema beside it; made and kept by Commissary"
            : "\(mark): a published night, renamed aside and dropped by Commissary alone"
        return "COMMENT ON SCHEMA \(schema) IS '\(text)'"
    }

    enum Standing: Equatable {
        case absent
        case ours
        /// Made by a version before the mark, and holding nothing else.
        case oursUnmarked
        /// Someone else's: holds `foreign`, a relation a publish does not make (or has no
        /// relation that shows it is ours).
        case foreign(String)
    }

    /// Whether `schema` exists and, if so, whether it is ours.
    static func standing(of schema: String, feed: Bool = false, _ connection: PostgresConnection) throws -> Standing {
        let rows = try connection.query("""
            SELECT coalesce(obj_description(oid, 'pg_namespace'), '') FROM pg_namespace WHERE nspname = $1
            """, [schema])
        guard let row = rows.first else { return .absent }
        if (row.first ?? nil)?.hasPrefix(feed ? feedMark : mark) == true { return .ours }
        let relations = try connection.query("""
            SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
            WHERE n.nspname = $1 AND c.relkind IN ('r', 'v', 'm', 'p', 'f', 'S') ORDER BY 1
            """, [schema]).compactMap { $0.first ?? nil }
        // Every object a schema holds depends on it, but relations' row types and arrays, which
        // depend on their relation, and composite types' relations, on their type. A publish
        // makes relations and one function (the views' `real_text`): a schema that holds any
        // other object (a function, a type of any kind, a collation, an operator, a text-search
        // configuration, a conversion, statistics) is an application's, whatever else it holds.
        let others = try connection.query("""
            SELECT d.classid = 'pg_proc'::regclass AND p.proname = $2, pg_describe_object(d.classid, d.objid, 0)
            FROM pg_depend d LEFT JOIN pg_proc p ON d.classid = 'pg_proc'::regclass AND p.oid = d.objid
            WHERE d.refclassid = 'pg_namespace'::regclass AND d.classid <> 'pg_class'::regclass
              AND d.refobjid = (SELECT oid FROM pg_namespace WHERE nspname = $1)
            ORDER BY 2
            """, [schema, SQLDialect.realTextFunction])
        if let stranger = others.first(where: { $0[0] != "t" || feed }), let described = stranger[1] {
            return .foreign(described)
        }
        // An empty schema holds nothing to lose (one made ahead of the first night, to expose it).
        if relations.isEmpty { return .oursUnmarked }
        let known: Set<String>
        if feed {
            guard relations == ["change", "run"] else {
                return .foreign(relations.first { $0 != "run" && $0 != "change" } ?? "a feed's tables, not both")
            }
            known = ["run", "change"]
        } else {
            guard relations.contains("_table_keys"), relations.contains("_meta") else {
                return .foreign(relations.first ?? "no table of a snapshot")
            }
            // A `_table_keys` of another shape is someone else's.
            guard let listed = try? connection.query("SELECT DISTINCT table_name FROM \(PostgresPublisher.quoted(schema))._table_keys")
                .compactMap({ $0.first ?? nil }) else { return .foreign("_table_keys") }
            let views = try connection.query("""
                SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
                WHERE n.nspname = $1 AND c.relkind = 'v' AND c.relname LIKE 'v\\_%'
                """, [schema]).compactMap { $0.first ?? nil }
            known = Set(listed + views + ["_table_keys", "_meta", "food_search", "recipe_search"])
        }
        if let stranger = relations.first(where: { !known.contains($0) }) { return .foreign(stranger) }
        return .oursUnmarked
    }

    /// What outside `schema` depends on something in it, as PostgreSQL describes it ("view
    /// app.menu_today", "constraint favourite_food_id_fkey on table app.favourite"): an
    /// application's view, foreign key, policy, column default or column type. `DROP SCHEMA …
    /// CASCADE` would drop each of them with the schema, and after a rename each would go on
    /// reading the schema under its new name, since PostgreSQL binds them to objects, not names.
    /// Followed through views (a view over such a view is dropped with it too). The views of a
    /// schema across pipelines are not counted (each publish of a member makes them again), but
    /// what an application built on them is.
    static func dependents(on schema: String, _ connection: PostgresConnection) throws -> [String] {
        try connection.query("""
            WITH RECURSIVE target AS (SELECT oid FROM pg_namespace WHERE nspname = $1),
            across AS (
                SELECT oid FROM pg_namespace WHERE starts_with(coalesce(obj_description(oid, 'pg_namespace'), ''), $2)
            ),
            reached (classid, objid) AS (
                SELECT 'pg_class'::regclass::oid, oid FROM pg_class WHERE relnamespace IN (SELECT oid FROM target)
                UNION SELECT 'pg_type'::regclass::oid, oid FROM pg_type WHERE typnamespace IN (SELECT oid FROM target)
                UNION SELECT 'pg_proc'::regclass::oid, oid FROM pg_proc WHERE pronamespace IN (SELECT oid FROM target)
                UNION
                -- A view depends on what it reads through its rewrite rule: the view itself is reached.
                SELECT CASE WHEN d.classid = 'pg_rewrite'::regclass THEN 'pg_class'::regclass::oid ELSE d.classid END,
                       CASE WHEN d.classid = 'pg_rewrite'::regclass
                            THEN (SELECT ev_class FROM pg_rewrite WHERE oid = d.objid) ELSE d.objid END
                FROM pg_depend d JOIN reached r ON d.refclassid = r.classid AND d.refobjid = r.objid
                WHERE d.deptype IN ('n', 'a')
            ),
            placed AS (
                SELECT classid, objid, CASE classid
                    WHEN 'pg_class'::regclass THEN (SELECT relnamespace FROM pg_class WHERE oid = objid)
                    WHEN 'pg_type'::regclass THEN (SELECT typnamespace FROM pg_type WHERE oid = objid)
                    WHEN 'pg_proc'::regclass THEN (SELECT pronamespace FROM pg_proc WHERE oid = objid)
                    WHEN 'pg_constraint'::regclass THEN (SELECT connamespace FROM pg_constraint WHERE oid = objid)
                    WHEN 'pg_trigger'::regclass
                        THEN (SELECT c.relnamespace FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid WHERE t.oid = objid)
                    WHEN 'pg_policy'::regclass
                        THEN (SELECT c.relnamespace FROM pg_policy p JOIN pg_class c ON c.oid = p.polrelid WHERE p.oid = objid)
                    WHEN 'pg_attrdef'::regclass
                        THEN (SELECT c.relnamespace FROM pg_attrdef a JOIN pg_class c ON c.oid = a.adrelid WHERE a.oid = objid)
                    END AS namespace
                FROM reached
            )
            SELECT pg_describe_object(classid, objid, 0) FROM placed
            WHERE namespace IS DISTINCT FROM (SELECT oid FROM target)
              AND NOT (classid = 'pg_class'::regclass AND namespace IN (SELECT oid FROM across))
            ORDER BY 1
            """, [schema, PostgresAcross.mark], at: schema).compactMap { $0.first ?? nil }
    }

    /// Drops `schema` and everything in it, unless something outside depends on it
    /// (`dependents(on:)`): then it is kept, and the error names what depends on it.
    static func drop(_ schema: String, _ connection: PostgresConnection) throws {
        try refuseDrop(schema, connection)
        try connection.execute("DROP SCHEMA IF EXISTS \(PostgresPublisher.quoted(schema)) CASCADE", at: schema)
    }

    /// Refuses to go on when something outside `schema` depends on it, naming what.
    static func refuseDrop(_ schema: String, _ connection: PostgresConnection) throws {
        let outside = try dependents(on: schema, connection)
        guard outside.isEmpty else {
            let (them, depend) = outside.count == 1 ? ("it", "depends") : ("them", "depend")
            throw Failure(.postgres, "\(listed(outside)) \(depend) on this schema, which is not served, and dropping the schema "
                          + "would drop \(them) too; it was kept. Make \(them) again on the served schema, or drop \(them)",
                          at: schema)
        }
    }

    /// The first few of `objects`, and how many more there are.
    static func listed(_ objects: [String]) -> String {
        let shown = objects.prefix(3).joined(separator: ", ")
        return objects.count > 3 ? "\(shown) and \(objects.count - 3) more" : shown
    }

    /// Holds publishing into `schema` for the life of `connection` (a session advisory lock):
    /// two publishes into one schema at once (the same pipeline run on a second host, a run by
    /// hand during the nightly one) would build in the same `__building` schema and could swap
    /// in a night the other half built. A publish held by another waits for it, at most
    /// `seconds`, and is refused after that: the night it missed is sent by its next run. The
    /// wait also covers a publish killed a moment ago, whose server session keeps the lock
    /// until the statement it was running ends. A run asked to stop (its task cancelled) stops
    /// waiting: nothing has been sent yet.
    static func holdPublishing(_ schema: String, waitingAtMost seconds: Int, _ connection: PostgresConnection) throws {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while try connection.query("SELECT pg_try_advisory_lock(hashtext($1))", ["commissary publish " + schema],
                                   at: schema).first?.first ?? nil != "t" {
            guard !Task.isCancelled else {
                throw Failure(.postgres, "stopped while another publish into this schema was running; PostgreSQL was left "
                              + "as it was, and the next run sends this night", at: schema)
            }
            guard ContinuousClock.now < deadline else {
                throw Failure(.postgres, "another publish into this schema is running (the same pipeline on another machine, "
                              + "or another pipeline naming this schema) and held it for \(seconds) s; PostgreSQL was "
                              + "left as it was, and the next run sends this night", at: schema)
            }
            Thread.sleep(forTimeInterval: 0.25)
        }
    }

    /// Refuses `schema` when it serves another pipeline's nights: two pipelines naming one
    /// schema would each replace the other's night on every run, and the change feed beside it
    /// would record one pipeline's rows as changes to the other's.
    static func claim(_ schema: String, for pipeline: String, _ connection: PostgresConnection) throws {
        guard let served = try PostgresPublisher.meta("pipeline", in: schema, connection), served != pipeline else { return }
        throw Failure(.badInput, "schema \(schema) serves the pipeline \(served), and this is \(pipeline): each pipeline "
                      + "publishes into a schema of its own; PostgreSQL was left as it was. To hand the schema over, drop "
                      + "\(schema) and \(schema)_changes by hand", at: "publish.postgres.schema")
    }

    /// Refuses to go on when `schema` exists and is not ours; marks one a version before the
    /// mark made, so that the check after this one need not look inside it again.
    static func claim(_ schema: String, feed: Bool = false, _ connection: PostgresConnection) throws {
        switch try standing(of: schema, feed: feed, connection) {
        case .absent, .ours: return
        case .oursUnmarked: try connection.execute(comment(on: schema, feed: feed), at: schema)
        case .foreign(let relation):
            throw Failure(.badInput, "schema \(schema) exists and was not made by Commissary (it holds \(relation)); "
                          + "it was left as it was. Choose a schema of Commissary's own in publish.postgres.schema",
                          at: "publish.postgres.schema")
        }
    }
}
