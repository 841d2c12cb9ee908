import Foundation
import Snapshot
import Synchronization
import Testing
import TestSupport

/// A site that fixes the charset its `Content-Type` declares, its bytes unchanged: the bytes read
/// another way, so the night after is not unchanged. The header's charset wins over the page's
/// own `<meta>`, so the same bytes are other text; a run that compared documents by their bytes
/// alone found the night unchanged and kept the wrongly read names for good (and the parse cache
/// kept the wrong parse under the same key).
@Suite struct CharsetChangeTests {
    /// A served day whose first item is "Greek Yogurt Parfait" (SampleData's 2026-10-11) renamed
    /// "Greek Yogurt Parfait Café", its "é" one byte, 0xE9, as ISO-8859-1 writes it.
    private static func latinPage() throws -> Data {
        let page = try #require(SampleSite.page("/Menus/2026-10-11"))
        let marker = Data("Greek Yogurt Parfait<".utf8)
        let found = try #require(page.range(of: marker))
        var bytes = page
        bytes.replaceSubrange(found.lowerBound..<(found.upperBound - 1), with: Data("Greek Yogurt Parfait Caf".utf8) + [0xE9])
        return bytes
    }

    @Test func theSameBytesUnderAnotherCharsetAreReadAgain() async throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let page = try Self.latinPage()
        let charset = Mutex("utf-8")
        let server = try SampleSite.server(lifetime: .seconds(120)) { request, _ in
            guard request.path == "/Menus/2026-10-11" else { return nil }
            return Reply(headers: [("Content-Type", "text/html; charset=\(charset.withLock { $0 })")], body: page)
        }
        defer { server.stop() }
        let pipeline = folder.appendingPathComponent("charset.yml")
        try Data(SampleSite.pipelineYAML(name: "charset", base: server.url("")).utf8).write(to: pipeline)
        let arguments = ["run", pipeline.path, "--workspace", folder.path, "--log-format", "text"]
        let store = SnapshotStore(directory: folder.appendingPathComponent("snapshots"))
        func names() throws -> [String] {
            let snapshot = try #require(store.latest(pipeline: "charset"))
            return try QueryResult.run("""
                SELECT DISTINCT menu_item.name FROM menu_item JOIN meal ON meal.id = menu_item.meal_id
                JOIN service_day ON service_day.id = meal.service_day_id
                WHERE service_day.date = '2026-10-11' AND menu_item.name LIKE 'Greek Yogurt Parfait%'
                """,
                                       on: snapshot).rows.map { row in
                if case .text(let name)? = row.first { return name }
                return "\(row)"
            }
        }

        // Declared UTF-8, the byte 0xE9 is no UTF-8: it reads as U+FFFD.
        let first = try await CommissaryProcess.run(arguments)
        #expect(first.status == 0, "\(first.error)")
        let broken = try names()
        #expect(broken == ["Greek Yogurt Parfait Caf\u{FFFD}"], "\(broken)")

        charset.withLock { $0 = "iso-8859-1" }
        let fixed = try await CommissaryProcess.run(arguments)
        #expect(fixed.status == 0, "\(fixed.error)")
        let read = try names()
        #expect(read == ["Greek Yogurt Parfait Café"], "\(read)")
    }
}
