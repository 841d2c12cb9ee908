import FoodModel
import Foundation
import PostgresTarget
import Snapshot
import Testing
import TestSupport

/// deploy/dagster, the Dagster code location, run by Dagster itself: `scripts/test` installs
/// Dagster from PyPI into `.build/tools`, and the driver (deploy/dagster/tests/three_campuses.py)
/// first runs the code location's unit tests (the exit statuses' verdicts, the checks, the
/// schedule, the Kubernetes manifest), then materializes three campuses with Dagster's
/// multiprocess executor into one private PostgreSQL server: the sample, a Bon Appétit day whose
/// first answer comes too late (exit 4, which asks Dagster for a retry) and a saved UCLA night
/// whose step worker is killed with SIGKILL in the middle of its run (Dagster retries the step).
/// The figures the driver reports are held to counts taken here from the sources, and the views
/// across the campuses to the three SQLite snapshots, row for row.
@Suite(.serialized,
       .enabled(if: DagsterTools.installed,
                "scripts/test installs Dagster and kubernetes-validate into .build/tools from PyPI; without network it could not"),
       .enabled(if: PrivatePostgres.available, "no PostgreSQL server installed (scripts/test installs it)"))
struct DagsterTests {
    static let driver = Paths.packageRoot.appendingPathComponent("deploy/dagster/tests/three_campuses.py")
    static let uclaNight = ServiceDate("2025-04-10")!

    /// What the driver saw, as it prints it (deploy/dagster/tests/three_campuses.py).
    struct Report: Decodable {
        struct UnitTests: Decodable { var ran: Int; var failed: [String] }
        struct Step: Decodable { var attempts: Int; var retries: [String]; var failures: [String]; var success: Bool }
        struct Materialization: Decodable { var partition: String?; var status: String; var night: String; var menuItemRows: Int }
        struct Check: Decodable { var passed: Bool; var severity: String }
        struct Run: Decodable {
            var success: Bool
            var seconds: Double
            var steps: [String: Step]
            var materializations: [String: Materialization]
            var checks: [String: [String: Check]]
            var engine: [String]
        }
        struct Killed: Decodable { var workerCommand: String?; var runEnded: Bool?; var error: String? }
        struct Postgres: Decodable { var menuItem: [String: Int]; var vMenu: [String: Int]; var campuses: [String: String] }
        var unitTests: UnitTests
        var run: Run
        var killed: Killed
        var requests: [String: Int]
        var postgres: Postgres
        var snapshots: [String: Int]
    }

    /// Runs the driver to its end without holding a thread of the pool while it runs.
    static func drive(in folder: URL, postgres: String) async throws -> (report: Data, status: Int32, log: String) {
        let output = folder.appendingPathComponent("driver.json")
        let log = folder.appendingPathComponent("driver.log")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let work = folder.appendingPathComponent("work")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        let process = Process()
        process.executableURL = DagsterTools.folder.appendingPathComponent("python3")
        process.arguments = [driver.path, "--binary", CommissaryProcess.binary.path, "--postgres", postgres,
                             "--package-root", Paths.packageRoot.path, "--shared-data", Paths.sharedData.path,
                             "--folder", work.path]
        let outputHandle = try FileHandle(forWritingTo: output)
        let logHandle = try FileHandle(forWritingTo: log)
        defer {
            try? outputHandle.close()
            try? logHandle.close()
        }
        // Python's compiled caches stay out of the checkout.
        process.environment = ProcessInfo.processInfo.environment.merging(["PYTHONDONTWRITEBYTECODE": "1"]) { _, given in given }
        process.standardOutput = outputHandle
        process.standardError = logHandle
        try CommissaryProcess.launch(process)
        let status = try await CommissaryProcess.exit(of: process)
        let text = String(decoding: try Data(contentsOf: log), as: UTF8.self)
        return (try Data(contentsOf: output), status, String(text.suffix(6000)))
    }

    @Test func threeCampusesMaterializeAndAKilledWorkerIsRetriedToPublication() async throws {
        let server = try PrivatePostgres()
        defer { server.stop() }
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (printed, status, log) = try await Self.drive(in: folder, postgres: server.url)
        try #require(status == 0, "the driver ended with status \(status): \(log)")
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let report = try decoder.decode(Report.self, from: printed)

        #expect(report.unitTests.ran > 0 && report.unitTests.failed.isEmpty, "\(report.unitTests.failed)")
        #expect(report.run.success, "\(report.run.steps)")
        #expect(report.run.engine.contains { $0.contains("Executing steps using multiprocess executor") }, "\(report.run.engine)")

        // The sample as SampleData/README.md counts it; St. Olaf's Stav Hall and UCLA's night as
        // the tests' own walks of the saved JSON count them.
        let expected = [
            "sample": 124,
            "stolaf": try CampusesPipelineTests.stavItems(),
            "ucla": try UCLAJamixNights.dates(of: Self.uclaNight).map { try UCLAJamixNights.rows(night: Self.uclaNight, date: $0).count }
                .reduce(0, +),
        ]
        #expect(UCLAJamixNights.dates(of: Self.uclaNight).count == 6)

        // One step per campus; the two that failed once were retried by Dagster and published.
        let steps = report.run.steps
        #expect(Set(steps.keys) == ["commissary__sample", "commissary__stolaf", "commissary__ucla"])
        #expect(steps.values.allSatisfy { $0.success && $0.failures.isEmpty }, "\(steps)")
        #expect(steps["commissary__sample"]?.attempts == 1)
        let stolaf = try #require(steps["commissary__stolaf"])
        #expect(stolaf.attempts == 2 && stolaf.retries.count == 1, "\(stolaf)")
        #expect(stolaf.retries.first?.contains("RetryRequested") == true, "\(stolaf.retries)")
        #expect(stolaf.retries.first?.contains("commissary run ended with status 4: error: the site could not be reached") == true,
                "\(stolaf.retries)")
        #expect(report.requests["stolaf"] == 2, "the stalled answer, then the one the retry read")
        let ucla = try #require(steps["commissary__ucla"])
        #expect(ucla.attempts == 2 && ucla.retries.count == 1, "\(ucla)")
        #expect(ucla.retries.first?.contains("ChildProcessCrashException") == true, "\(ucla.retries)")

        // The worker killed was Dagster's step process, and its commissary run stopped with it.
        #expect(report.killed.error == nil, "\(report.killed)")
        #expect(report.killed.workerCommand?.contains("multiprocessing") == true, "\(report.killed)")
        #expect(report.killed.runEnded == true)

        // Each campus materialized with the run's figures: UCLA as its night's partition, the
        // two campuses of fixed dates unpartitioned.
        let materialized = report.run.materializations
        #expect(Set(materialized.keys) == Set(expected.keys))
        for (campus, count) in expected {
            #expect(materialized[campus]?.status == "published", "\(campus)")
            #expect(materialized[campus]?.menuItemRows == count, "\(campus)")
        }
        #expect(materialized["ucla"]?.partition == "2025-04-10" && materialized["ucla"]?.night == "2025-04-10")
        #expect(materialized["sample"]?.partition == nil && materialized["stolaf"]?.partition == nil)

        // The run's checks as each asset's three: nothing blocked, nothing stale; the sample's
        // deliberate unknown code `ZZ` is its one failed warning.
        for campus in expected.keys {
            let checks = try #require(report.run.checks[campus], "\(campus)")
            #expect(checks["blocking_checks"]?.passed == true && checks["blocking_checks"]?.severity == "ERROR", "\(campus)")
            #expect(checks["fresh_partitions"]?.passed == true && checks["fresh_partitions"]?.severity == "WARN", "\(campus)")
            #expect(checks["warning_checks"]?.severity == "WARN", "\(campus)")
        }
        #expect(report.run.checks["sample"]?["warning_checks"]?.passed == false)

        // Read together through the views across the campuses, each campus as its snapshot holds it.
        #expect(report.snapshots == expected)
        #expect(report.postgres.menuItem == expected)
        #expect(report.postgres.vMenu == expected)
        #expect(report.postgres.campuses == ["sample": "UCLA", "stolaf": "St. Olaf", "ucla": "UCLA"])

        // Row for row: each campus's items and menus through the views, as its SQLite snapshot holds them.
        let connection = try PostgresConnection(url: server.url, place: "test")
        let snapshots = folder.appendingPathComponent("work/workspace/snapshots")
        for campus in expected.keys.sorted() {
            let snapshot = snapshots.appendingPathComponent("latest-\(campus)")
            for (view, columns) in [("menu_item", "id, meal_id, section_id, food_id, position, name"),
                                    ("v_menu", "date, restaurant, meal, section, item")] {
                let served = try connection.query("SELECT \(columns) FROM campuses.\(view) WHERE pipeline = $1", [campus])
                    .sorted { "\($0)" < "\($1)" }
                let kept = try QueryResult.run("SELECT \(columns) FROM \(view)", on: snapshot).rows
                    .map { $0.map(Self.text) }.sorted { "\($0)" < "\($1)" }
                #expect(served.count == expected[campus] && served == kept, "\(campus): campuses.\(view)")
            }
        }
    }

    /// A snapshot's value as PostgreSQL prints it (these columns hold integers and text).
    private static func text(_ value: SQLValue) -> String? {
        switch value {
        case .null: return nil
        case .integer(let number): return String(number)
        case .real(let number): return "\(number)"
        case .text(let text): return text
        case .blob: return "blob"
        }
    }
}

/// The test tools' Python, with Dagster and kubernetes-validate, as scripts/test installs them.
enum DagsterTools {
    static let folder = Paths.packageRoot.appendingPathComponent(".build/tools/bin")

    static var installed: Bool {
        ["python3", "dagster", "kubernetes-validate"].allSatisfy {
            FileManager.default.isExecutableFile(atPath: folder.appendingPathComponent($0).path)
        }
    }
}
