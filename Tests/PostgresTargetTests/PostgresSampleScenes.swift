import Basics
import FoodModel
import Foundation
import Logging
import Pipeline
import PostgresTarget
import Snapshot
import Synchronization
import Testing
import TestSupport

/// What the suites that publish the sample into a private server share: the sample's pipeline
/// naming the suite's variable, a run, rows of both databases as text that compares, and the
/// readers' access after a publish. Each suite names its own variable (`url_env`), set for its
/// tests one at a time, so that the suites run side by side.
protocol PostgresSampleScenes {
    static var variable: String { get }
}

/// A private server the pipelines' `url_env` names, and a workspace: what most tests of the suites
/// start from; `close` stops the one and removes the other.
struct ServerScene {
    let server: PrivatePostgres
    let workspace: URL
    let variable: String

    init(variable: String) throws {
        server = try PrivatePostgres()
        self.variable = variable
        setenv(variable, server.url, 1)
        do {
            workspace = try Paths.temporaryFolder()
        } catch {
            unsetenv(variable)
            server.stop()
            throw error
        }
    }

    func close() {
        unsetenv(variable)
        server.stop()
        try? FileManager.default.removeItem(at: workspace)
    }
}

/// The sample's two menu pages a night edits: the item 2026-10-11's first meal lists first
/// (Covel's Greek Yogurt Parfait) renamed or not, and 2026-10-12's first item taken off or not.
struct NightPages {
    static func name(renamed: Bool) -> String { renamed ? "Greek Yogurt Parfait Cup" : "Greek Yogurt Parfait" }

    let page: URL, original: String
    let otherPage: URL, otherOriginal: String
    /// The other page without its first <li class="menu-item"> … </li>: its first meal's first item.
    let withoutFirstItem: String

    init(site: URL) throws {
        page = site.appendingPathComponent("Menus/2026-10-11.html")
        original = try String(contentsOf: page, encoding: .utf8)
        otherPage = site.appendingPathComponent("Menus/2026-10-12.html")
        otherOriginal = try String(contentsOf: otherPage, encoding: .utf8)
        let start = try #require(otherOriginal.range(of: "<li class=\"menu-item\">"))
        let end = try #require(otherOriginal.range(of: "</li>", range: start.upperBound..<otherOriginal.endIndex))
        withoutFirstItem = otherOriginal.replacingCharacters(in: start.lowerBound..<end.upperBound, with: "")
    }

    func write(renamed: Bool, withoutFirstItem without: Bool) throws {
        try Data(original.replacingOccurrences(of: ">Greek Yogurt Parfait</a>", with: ">\(Self.name(renamed: renamed))</a>").utf8)
            .write(to: page)
        try Data((without ? withoutFirstItem : otherOriginal).utf8).write(to: otherPage)
    }
}

/// A reader that asks, as `anon`, in one statement and in a loop until `stop`, for the served
/// night's run id and the name of the item 2026-10-11's first meal lists first: the pairs it
/// saw (each must be one night's), and what failed.
final class NightReader: Sendable {
    private final class Seen: Sendable {
        let observations = Mutex<Set<[String?]>>([])
        let failures = Mutex<[String]>([])
    }

    private let seen: Seen
    private let reading: Task<Void, Never>

    init(server url: String) {
        let seen = Seen()
        self.seen = seen
        reading = Task.detached {
            guard let reader = try? PostgresConnection(url: url, place: "reader"), (try? reader.execute("SET ROLE anon")) != nil
            else {
                seen.failures.withLock { $0.append("the reader could not connect") }
                return
            }
            while !Task.isCancelled {
                do {
                    let row = try reader.query("""
                        SELECT (SELECT value FROM dining._meta WHERE key = 'run_id'),
                               (SELECT name FROM dining.menu_item WHERE meal_id = 2026101101 AND position = 1)
                        """)
                    if let row = row.first { seen.observations.withLock { _ = $0.insert(row) } }
                } catch {
                    seen.failures.withLock { $0.append("\(error)") }
                }
                // Lets the runs' own tasks have the thread between reads.
                await Task.yield()
            }
        }
    }

    func stop() async -> (seen: Set<[String?]>, failures: [String]) {
        reading.cancel()
        await reading.value
        return (seen.observations.withLock { $0 }, seen.failures.withLock { $0 })
    }
}

extension PostgresSampleScenes {
    /// The bundled sample over a copy of SampleData, publishing into schema `dining` too, with
    /// `access` (more `publish: postgres:` lines, indented four spaces) if given.
    func samplePipeline(in workspace: URL, access: String = "") throws -> (spec: URL, site: URL) {
        try SampleCopy.make(in: workspace,
                            adding: "\npublish:\n  postgres:\n    url_env: \(Self.variable)\n    schema: dining\n" + access)
    }

    /// `force`: every partition fetched again, and PostgreSQL's night built and swapped in whole.
    func run(_ spec: URL, workspace: URL, force: Bool = true) async throws -> RunReport {
        try await PipelineRunner(
            spec: try SpecReader.read(spec),
            options: RunOptions(workspace: Workspace(root: workspace), today: ServiceDate("2026-10-12")!, force: force),
            observer: SilentObserver(), logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })).run()
    }

    /// A value as text both databases agree on: integral numbers without a fraction.
    static func normalized(_ value: SQLValue) -> String? {
        switch value {
        case .null: return nil
        case .integer(let number): return String(number)
        case .real(let number): return number == number.rounded() && abs(number) < 1e15 ? String(Int64(number)) : "\(number)"
        case .text(let text): return text
        case .blob: return "blob"
        }
    }

    static func normalized(postgres value: String?) -> String? {
        guard let value, let number = Double(value), value.contains(".") || value.contains("e") else { return value }
        return number == number.rounded() && abs(number) < 1e15 ? String(Int64(number)) : "\(number)"
    }

    func sqliteRows(_ sql: String, _ file: URL) throws -> [[String?]] {
        try QueryResult.run(sql, on: file).rows.map { $0.map(Self.normalized) }.sorted { "\($0)" < "\($1)" }
    }

    func postgresRows(_ sql: String, _ connection: PostgresConnection) throws -> [[String?]] {
        try connection.query(sql).map { $0.map(Self.normalized(postgres:)) }.sorted { "\($0)" < "\($1)" }
    }

    /// Every column of a table or view (`columns` if given), PostgreSQL's booleans turned into
    /// SQLite's 0/1 so that rows compare: the flags are the one type the two databases spell
    /// differently.
    func postgresSelect(_ relation: String, columns wanted: [String]? = nil,
                                _ connection: PostgresConnection) throws -> String {
        let columns = try connection.query("""
            SELECT column_name, data_type FROM information_schema.columns
            WHERE table_schema = current_schema() AND table_name = $1 ORDER BY ordinal_position
            """, [relation]).filter { row in wanted.map { $0.contains(row[0] ?? "") } ?? true }
        let list = columns.map { row in
            let name = "\"\(row[0] ?? "")\""
            return row[1] == "boolean" ? "\(name)::int" : name
        }
        return "SELECT \(list.joined(separator: ", ")) FROM \"\(relation)\""
    }

    /// What a reader may do with a night's schema and the change feed, checked after a publish
    /// with `readers: [anon, authenticated]` and `row_level_security: true`: both readers (NOLOGIN
    /// roles, as Supabase makes them, taken on with SET ROLE) read every table and view of the
    /// snapshot and the feed, a role not among them is refused, a reader's writes are refused,
    /// row-level security is on with one read policy on every table, and tables and views carry
    /// their descriptions.
    func expectReadersOnly(night: Int, snapshot: URL, _ connection: PostgresConnection) throws {
        func refused(as role: String, _ sql: String) -> Bool {
            defer { try? connection.execute("RESET ROLE") }
            do {
                try connection.execute("SET ROLE \(role); \(sql)")
                return false
            } catch {
                return "\(error)".contains("permission denied")
            }
        }
        let views = try QueryResult.run("SELECT name FROM sqlite_master WHERE type = 'view'", on: snapshot).rows
            .compactMap { Self.normalized($0[0]) }
        // The snapshot's tables and the two search tables PostgreSQL has instead of FTS5.
        let tables = try QueryResult.run("SELECT table_name FROM _table_keys", on: snapshot).rows
            .compactMap { Self.normalized($0[0]) } + ["food_search", "recipe_search"]
        #expect(views.count == 16 && tables.contains("menu_item"), "night \(night)")
        let items = try sqliteRows("SELECT count(*) FROM menu_item", snapshot)
        #expect(items != [["0"]])
        for reader in ["anon", "authenticated"] {
            try connection.execute("SET ROLE \(reader)")
            for relation in views.map({ "dining.\($0)" }) + tables.map({ "dining.\"\($0)\"" })
                + ["dining_changes.run", "dining_changes.change"] {
                #expect(throws: Never.self, "night \(night): \(reader) reads \(relation)") {
                    try connection.query("SELECT count(*) FROM \(relation)")
                }
            }
            // The policy lets every row through: a reader sees the night's every menu item.
            #expect(try postgresRows("SELECT count(*) FROM dining.menu_item", connection) == items, "night \(night)")
            try connection.execute("RESET ROLE")
        }
        #expect(refused(as: "outsider", "SELECT count(*) FROM dining.v_menu"), "night \(night)")
        #expect(refused(as: "outsider", "SELECT count(*) FROM dining.menu_item"), "night \(night)")
        #expect(refused(as: "outsider", "SELECT count(*) FROM dining_changes.change"), "night \(night)")
        #expect(refused(as: "anon", "DELETE FROM dining.menu_item"), "night \(night)")
        #expect(refused(as: "authenticated", "INSERT INTO dining._meta (key, value) VALUES ('x', 'y')"), "night \(night)")
        #expect(refused(as: "anon", "DELETE FROM dining_changes.change"), "night \(night)")
        let security = try connection.query("""
            SELECT n.nspname || '.' || c.relname, c.relrowsecurity, (SELECT string_agg(p.policyname || ':' || p.cmd || ':'
                || array_to_string(p.roles, ','), ' ') FROM pg_policies p WHERE p.schemaname = n.nspname AND p.tablename = c.relname)
            FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
            WHERE n.nspname IN ('dining', 'dining_changes') AND c.relkind = 'r'
            """)
        #expect(Set(security.compactMap { $0[0] })
                == Set(tables.map { "dining.\($0)" } + ["dining_changes.run", "dining_changes.change"]), "night \(night)")
        for row in security {
            #expect(row[1] == "t" && row[2] == "commissary_read:SELECT:anon,authenticated", "night \(night): \(row)")
        }
        // Every table and view the schema description describes carries its description.
        let undescribed = try connection.query("""
            SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
            WHERE n.nspname = 'dining' AND c.relkind IN ('r', 'v') AND obj_description(c.oid, 'pg_class') IS NULL ORDER BY 1
            """)
        #expect(undescribed == [["food_search"], ["recipe_search"]], "night \(night)")
    }
}
