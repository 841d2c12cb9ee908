import FoodModel
import Foundation
import GRDB
import Logging
import Pipeline
import Testing
import TestSupport

/// `commissary query` and `commissary diff` end to end: the built binary on a freshly
/// published sample snapshot, values checked by hand against SampleData's recipe pages
/// (041180: description "Quinoa with parsley, mint, cucumber, tomato and lemon", 160 calories;
/// 163008: no description, 136 calories, ingredients "Water, Jasmine Rice").
@Suite struct QueryCommandTests {
    private func commissary(_ arguments: [String]) async throws -> CommissaryProcess.Outcome {
        try await CommissaryProcess.run(arguments)
    }

    private func publishSample(in workspace: URL) async throws {
        let runner = PipelineRunner(
            spec: try SpecReader.read(Paths.pipelines.appendingPathComponent("sample.yml")),
            options: RunOptions(workspace: Workspace(root: workspace), today: try #require(ServiceDate("2026-10-12"))),
            observer: SilentObserver(), logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }))
        _ = try await runner.run()
    }

    private let sql = """
        SELECT id, description, calories, ingredients FROM food
        WHERE id IN ('ucla-menu:041180', 'ucla-menu:163008') ORDER BY id
        """

    @Test func queryPrintsCSVAndJSONWithQuotingTypesAndNulls() async throws {
        try #require(FileManager.default.isExecutableFile(atPath: CommissaryProcess.binary.path), "build the commissary binary first")
        let workspace = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: workspace) }
        try await publishSample(in: workspace)

        let csv = try await commissary(["query", "latest", sql, "--format", "csv", "--workspace", workspace.path])
        #expect(csv.status == 0)
        #expect(csv.output == "id,description,calories,ingredients\r\n"
                + "ucla-menu:041180,\"Quinoa with parsley, mint, cucumber, tomato and lemon\",160.0,"
                + "\"Quinoa, Parsley, Cucumber, Tomato, Lemon Juice, Olive Oil, Mint, Kosher Salt\"\r\n"
                + "ucla-menu:163008,,136.0,\"Water, Jasmine Rice\"\r\n")

        let json = try await commissary(["query", "latest-sample", sql, "--format", "json", "--workspace", workspace.path])
        #expect(json.status == 0)
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [[String: Any]])
        #expect(rows.count == 2)
        #expect(rows.last?["description"] is NSNull)
        #expect((rows.last?["calories"] as? NSNumber)?.doubleValue == 136)
        #expect(rows.first?["ingredients"] as? String == "Quinoa, Parsley, Cucumber, Tomato, Lemon Juice, Olive Oil, Mint, Kosher Salt")
        // JSON Lines: the same objects, one a line, no array.
        let lines = try await commissary(["query", "latest-sample", sql, "--format", "jsonl", "--workspace", workspace.path])
        let objects = try lines.output.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        #expect(objects.map { $0["id"] as? String } == ["ucla-menu:041180", "ucla-menu:163008"])
        #expect(objects.last?["description"] is NSNull)

        let table = try await commissary(["query", "latest", "SELECT description FROM food WHERE id = 'ucla-menu:163008'",
                                    "--workspace", workspace.path])
        #expect(table.output == "description\n-----------\nNULL\n(1 row)\n")

        let write = try await commissary(["query", "latest", "DELETE FROM food", "--workspace", workspace.path])
        #expect(write.status == 1)
    }

    @Test func diffOfTheLatestWithItselfIsEmptyInBothFormats() async throws {
        try #require(FileManager.default.isExecutableFile(atPath: CommissaryProcess.binary.path), "build the commissary binary first")
        let workspace = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: workspace) }
        try await publishSample(in: workspace)
        let text = try await commissary(["diff", "latest", "latest-sample", "--workspace", workspace.path])
        #expect(text.status == 0)
        #expect(text.output == "No differences in foods, menu items, nutrients or recipes.\n")
        let json = try await commissary(["diff", "latest", "latest", "--format", "json", "--workspace", workspace.path])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: [Any]])
        #expect(object.count == 9)
        #expect(object.values.allSatisfy { $0.isEmpty })
        let missing = try await commissary(["diff", "latest", workspace.appendingPathComponent("none.sqlite").path,
                                      "--workspace", workspace.path])
        #expect(missing.status == 1)
    }

    /// `--exit-code`: 0 when the snapshots are the same, 7 when they differ (Commissary's 1 is a
    /// bad input, so git's number is not taken); the differences are printed either way.
    @Test func diffExitCodeSaysWhetherTheyDiffer() async throws {
        try #require(FileManager.default.isExecutableFile(atPath: CommissaryProcess.binary.path), "build the commissary binary first")
        let workspace = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: workspace) }
        try await publishSample(in: workspace)
        #expect(try await commissary(["diff", "latest", "latest", "--exit-code", "--workspace", workspace.path]).status == 0)

        // A copy with one value changed: Quinoa Tabbouleh's 160 calories (Recipes/041180) as 161.
        let latest = workspace.appendingPathComponent("snapshots/latest-sample").resolvingSymlinksInPath()
        let changed = workspace.appendingPathComponent("changed.sqlite")
        try FileManager.default.copyItem(at: latest, to: changed)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: changed.path)
        try await DatabaseQueue(path: changed.path).write { db in
            try db.execute(sql: "UPDATE food SET calories = 161 WHERE id = 'ucla-menu:041180'")
        }
        let differ = try await commissary(["diff", "latest", changed.path, "--exit-code", "--workspace", workspace.path])
        #expect(differ.status == 7)
        #expect(differ.output.contains("~ ucla-menu:041180 Quinoa Tabbouleh: calories \"160\" → \"161\""),
                "\(differ.output)")
        let plain = try await commissary(["diff", "latest", changed.path, "--workspace", workspace.path])
        #expect(plain.status == 0 && plain.output == differ.output)
        // In JSON a number stays a number.
        let json = try await commissary(["diff", "latest", changed.path, "--format", "json", "--workspace", workspace.path])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])
        let change = try #require(((object["foods_changed"] as? [[String: Any]])?.first?["changes"] as? [[String: Any]])?.first)
        #expect(change["field"] as? String == "calories")
        #expect((change["old"] as? NSNumber)?.intValue == 160 && (change["new"] as? NSNumber)?.intValue == 161)
        #expect(!(change["old"] is String))
    }
}
