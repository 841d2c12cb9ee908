import Foundation
import Testing
import TestSupport

/// A document's text reaches a person's terminal, a log line and the cron mail: a name holding
/// CR/LF must not start a line of its own (`error: FORGED`), and an escape sequence must not act
/// on the terminal. The real binary on St. Olaf's real Bon Appétit answer, with a hostile item
/// name, then with an error answer whose message is hostile.
@Suite(.serialized) struct ForgedLineTests {
    static let hostile = "Scrambled Eggs\r\nerror: FORGED\u{1B}[2J"

    /// The real answer with its first listed item renamed to `hostile` and given an icon the
    /// legend does not define, so that the unknown-code warning names it.
    static func hostileAnswer() throws -> Data {
        var top = try #require(try JSONSerialization.jsonObject(
            with: Data(contentsOf: CampusesPipelineTests.stOlaf)) as? [String: Any])
        var items = try #require(top["items"] as? [String: [String: Any]])
        let day = try #require((top["days"] as? [[String: Any]])?.first)
        let cafe = try #require((day["cafes"] as? [String: Any])?["261"] as? [String: Any])
        let dayparts = (cafe["dayparts"] as? [[[String: Any]]] ?? []).flatMap { $0 }
        let first = try #require(dayparts.flatMap { $0["stations"] as? [[String: Any]] ?? [] }
            .flatMap { $0["items"] as? [String] ?? [] }.first)
        items[first]?["label"] = hostile
        items[first]?["cor_icon"] = ["99": "Forged\u{1B}]0;title\u{07}"]
        top["items"] = items
        return try JSONSerialization.data(withJSONObject: top)
    }

    /// No line of `text` begins with the forged word, and no control character but the line
    /// breaks between lines is left in it.
    private func expectNoForgery(_ text: String, _ what: String) {
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            #expect(!line.hasPrefix("error: FORGED"), "\(what): \(line)")
            #expect(!line.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }, "\(what): \(line.debugDescription)")
        }
    }

    @Test func aHostileNameNeverForgesALineNorReachesTheTerminalRaw() async throws {
        let workspace = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: workspace) }
        let site = try StOlafSite(answer: try Self.hostileAnswer(), workspace: workspace)
        defer { site.server.stop() }
        let spec = site.spec
        let arguments = ["run", spec.path, "--workspace", workspace.path]

        // The warning that names the item, as a person's progress (text) prints it.
        let good = try await CommissaryProcess.run(arguments + ["--log-format", "text"])
        #expect(good.status == 0, "\(good.error)")
        #expect(good.error.contains("Scrambled Eggs\\r\\nerror: FORGED\\x1b[2J"), "\(good.error)")
        expectNoForgery(good.error, "text progress")
        expectNoForgery(good.output, "summary")

        // The site answers an error whose message is hostile: the day is carried stale (its
        // `Stale:` line on standard output, the warning line last), then, under --quiet, the one
        // line cron mails.
        site.serve(Data(#"{"error": "Service unavailable\r\nerror: FORGED\u001b[2J"}"#.utf8))
        let stale = try await CommissaryProcess.run(arguments + ["--log-format", "text", "--force"])
        #expect(stale.status == 6, "\(stale.error)")
        #expect(stale.output.contains("Stale: stolaf/2016-11-22 is stale"), "\(stale.output)")
        #expect(stale.output.contains("Service unavailable\\r\\nerror: FORGED\\x1b[2J"), "\(stale.output)")
        expectNoForgery(stale.output, "summary of a stale night")
        expectNoForgery(stale.error, "progress of a stale night")
        let quiet = try await CommissaryProcess.run(arguments + ["--quiet", "--force"])
        #expect(quiet.status == 6, "\(quiet.error)")
        #expect(quiet.output.isEmpty)
        let lines = quiet.error.split(separator: "\n")
        #expect(lines.count == 1, "\(quiet.error)")
        #expect(quiet.error.contains("FORGED\\x1b[2J"), "\(quiet.error)")
        expectNoForgery(quiet.error, "the cron mail")

        // A first night on the error answer: the day fails, and `--verbose` logs why.
        let fresh = workspace.appendingPathComponent("fresh")
        let verbose = try await CommissaryProcess.run(["run", spec.path, "--workspace", fresh.path, "--verbose",
                                                       "--log-format", "text"])
        #expect(verbose.status == 3, "\(verbose.error)")
        #expect(verbose.error.contains("partition failed"), "the verbose log's line of the failed partition: \(verbose.error)")
        expectNoForgery(verbose.error, "the verbose log")
    }
}
