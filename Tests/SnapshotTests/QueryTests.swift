import Basics
import FoodModel
import Foundation
import Snapshot
import Testing

@Suite struct QueryTests {
    private func publishedSnapshot(in folder: URL) throws -> URL {
        let staging = try stage(smallDataset(), in: folder)
        defer { staging.discard() }
        return try SnapshotStore(directory: folder.appendingPathComponent("snapshots"))
            .publish(staging, fileName: "demo-q.sqlite", pipeline: "demo")
    }

    @Test func csvQuotesWhatNeedsQuotingAndLeavesNullEmpty() throws {
        let result = QueryResult(columns: ["name", "note", "n"], rows: [
            [.text("Mac, Cheese"), .text("say \"hi\""), .integer(3)],
            [.text("plain"), .null, .real(2.5)],
            [.text("two\nlines"), .text(""), .null],
        ])
        #expect(result.csv() == "name,note,n\r\n\"Mac, Cheese\",\"say \"\"hi\"\"\",3\r\nplain,,2.5\r\n\"two\nlines\",,\r\n")
    }

    @Test func jsonKeepsTypesAndNulls() throws {
        let result = QueryResult(columns: ["name", "calories", "fat", "missing"], rows: [
            [.text("Burger"), .integer(459), .real(21.3), .null],
        ])
        let parsed = try JSONSerialization.jsonObject(with: Data(result.json().utf8)) as? [[String: Any]]
        let row = try #require(parsed?.first)
        #expect(row["name"] as? String == "Burger")
        #expect((row["calories"] as? NSNumber)?.intValue == 459)
        #expect((row["fat"] as? NSNumber)?.doubleValue == 21.3)
        #expect(row["missing"] is NSNull)
    }

    /// The SELECT's order, every column (a repeated name numbered), and text escaped as JSON
    /// requires, written by hand: `SELECT 1 AS a, 2 AS a, 3 AS b` used to give `{"a":2,"b":3}`.
    @Test func jsonKeepsTheSelectsOrderAndEveryColumn() throws {
        let result = QueryResult(columns: ["b", "a", "a", "a_2"], rows: [
            [.integer(1), .text("say \"hi\"\\ / é\n\u{1}"), .real(0.5), .blob(Data([0xff]))],
        ])
        #expect(result.json() == """
            [
              {"b": 1, "a": "say \\"hi\\"\\\\ / é\\n\\u0001", "a_2": 0.5, "a_2_2": "/w=="}
            ]

            """)
        #expect(QueryResult(columns: ["a"], rows: []).json() == "[]\n")
        let parsed = try JSONSerialization.jsonObject(with: Data(result.json().utf8)) as? [[String: Any]]
        #expect(parsed?.first?["a"] as? String == "say \"hi\"\\ / é\n\u{1}")
    }

    @Test func tableAlignsColumnsAndShowsNull() {
        let result = QueryResult(columns: ["a", "bb"], rows: [[.text("long value"), .null]])
        #expect(result.table() == "a           bb\n----------  ----\nlong value  NULL\n(1 row)\n")
    }

    @Test func queriesRunOnThePublishedFileAndWritesAreRefused() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = try publishedSnapshot(in: folder)
        let result = try QueryResult.run(
            "SELECT date, count(*) AS items FROM v_menu GROUP BY date ORDER BY date", on: file)
        #expect(result.columns == ["date", "items"])
        #expect(result.rows == [[.text("2026-10-10"), .integer(3)], [.text("2026-10-11"), .integer(1)]])
        let before = try Data(contentsOf: file)
        #expect(throws: Failure.self) {
            try QueryResult.run("DELETE FROM menu_item", on: file)
        }
        #expect(throws: Failure.self) {
            try QueryResult.run("SELECT * FROM no_such_table", on: file)
        }
        #expect(try Data(contentsOf: file) == before)
    }
}
