import Foundation
import Testing
import TestSupport

/// A password, however it is spelled and wherever it is given, reaches no output of the real
/// binary: not standard error or output, the `--events` file, the run manifest, the ledger, the
/// raw store, the snapshot, its report or its metadata. Every password here is made of two
/// marks, so that a fragment cut at a `/`, `?`, `#` or `@` is found as well as the whole.
@Suite struct SecretTests {
    static let marks = ["leakA7", "leakB9"]

    /// The files under `folder` (but `except`) and the outputs that hold one of the marks.
    static func leaks(in folder: URL, except: Set<String> = [], outputs: [String: String]) -> [String] {
        let files = FileManager.default.enumerator(atPath: folder.path)?.compactMap { $0 as? String } ?? []
        var found: [String] = []
        for file in files where !except.contains(file) {
            let data = (try? Data(contentsOf: folder.appendingPathComponent(file))) ?? Data()
            if marks.contains(where: { data.range(of: Data($0.utf8)) != nil }) { found.append(file) }
        }
        for (name, text) in outputs where marks.contains(where: text.contains) { found.append("\(name): \(text)") }
        return found
    }

    /// The spellings the adversarial run got through (a password holding `/`, `?`, `#`, `@` or
    /// `%2F`; a user name alone; an upper-case scheme) and one refused for its scheme (`ftp`).
    static let locations = [
        "http://menu:leakA7/leakB9@127.0.0.1:9", "http://menu:leakA7?leakB9@127.0.0.1:9",
        "http://menu:leakA7#leakB9@127.0.0.1:9", "http://menu:leakA7@leakB9@127.0.0.1:9",
        "http://menu:leakA7%2FleakB9@127.0.0.1:9", "https://leakA7leakB9@127.0.0.1:9/menus",
        "HTTP://menu:leakA7leakB9@127.0.0.1:9", "ftp://menu:leakA7/leakB9@127.0.0.1:9",
    ]

    /// A location with user-info is refused at its line, naming where credentials go, however
    /// the password is spelled, and the refusal repeats none of it; nothing is written.
    @Test(arguments: locations)
    func aPasswordInALocationIsRefusedHoweverItIsSpelled(_ location: String) async throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let pipeline = folder.appendingPathComponent("userinfo.yml")
        try Data(SampleSite.pipelineYAML(name: "userinfo", base: "'\(location)'").utf8).write(to: pipeline)
        let run = try await CommissaryProcess.run(["run", pipeline.path, "--workspace", folder.path,
                                                   "--events", folder.appendingPathComponent("events.jsonl").path])
        #expect(run.status == 1, "\(run.error)")
        #expect(run.error.contains("\(pipeline.path):5:"), "\(run.error)")
        if location.hasPrefix("ftp") {
            #expect(run.error.contains("only http(s) URLs") && run.error.contains("ftp://<redacted>@127.0.0.1:9"), "\(run.error)")
        } else {
            #expect(run.error.contains("must not carry a user name or password") && run.error.contains("credentials_env"),
                    "\(run.error)")
        }
        #expect(Self.leaks(in: folder, except: ["userinfo.yml"], outputs: ["stderr": run.error, "stdout": run.output]) == [])
    }

    /// An address with a password where no check looks for one (the pipeline file's own path)
    /// is still redacted in the last line before the exit, and in the events.
    @Test func theLastLineRedactsAnAddressWhateverItsOrigin() async throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let events = folder.appendingPathComponent("events.jsonl")
        let run = try await CommissaryProcess.run(["run", "https://menu:leakA7leakB9@127.0.0.1:9/nightly.yml",
                                                   "--workspace", folder.path, "--events", events.path])
        #expect(run.status == 1, "\(run.error)")
        #expect(run.error.contains("https://<redacted>@127.0.0.1:9/nightly.yml"), "\(run.error)")
        #expect(Self.leaks(in: folder, outputs: ["stderr": run.error, "stdout": run.output]) == [])
    }

    /// `parse` refuses an address with user-info the same way, without printing it.
    @Test(arguments: locations)
    func parseRefusesAPasswordWithoutPrintingIt(_ location: String) async throws {
        let run = try await CommissaryProcess.run(["parse", "--adapter", "ucla-jamix", "--page", "recipe",
                                                   location + "/recipes/1883.json"])
        #expect(run.status == 1, "\(run.error)")
        #expect(run.error.contains("the address given to parse"), "\(run.error)")
        #expect(!Self.marks.contains(where: (run.error + run.output).contains), "\(run.error)")
    }
}

/// libpq's messages pass through the same redaction: a private PostgreSQL server on 127.0.0.1
/// that asks for a password (`leakA7/leakB9`), sent addresses that are wrong in each way the
/// adversarial run tried. The SQLite snapshot is published each time (exit 5 when PostgreSQL is
/// not updated), and no output or file holds the password.
@Suite(.serialized, .enabled(if: PrivatePostgres.available, "no PostgreSQL server installed (scripts/test installs it)"))
struct PostgresSecretTests {
    static let variable = "COMMISSARY_SECRET_TEST_PG_URL"

    @Test func noLibpqMessageRepeatsThePassword() async throws {
        let server = try PrivatePostgres(password: "leakA7/leakB9")
        defer { server.stop() }
        let site = try SampleSite.server(lifetime: .seconds(300))
        defer { site.stop() }
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let pipeline = folder.appendingPathComponent("secrets.yml")
        try Data((SampleSite.pipelineYAML(name: "secrets", base: site.url(""))
                  + "\npublish:\n  postgres:\n    url_env: \(Self.variable)\n    schema: dining\n").utf8).write(to: pipeline)
        let hostPort = "127.0.0.1:\(server.port)"
        // What the run must say for each address: libpq's refusal, or Commissary's own words
        // where libpq's would quote the address.
        let cases: [(address: String, said: String)] = [
            ("postgresql://postgres:leakA7-wrong-leakB9@\(hostPort)/postgres?connect_timeout=5",
             "password authentication failed for user \"postgres\""),
            ("postgresql://postgres:leakA7@leakB9@\(hostPort)/postgres", "would not read the user name and password as written"),
            ("postgresql://postgres:leakA7/leakB9@\(hostPort)/postgres", "would not read the user name and password as written"),
            ("postgresql://postgres:leakA7%zzleakB9@\(hostPort)/postgres", "libpq cannot read the address"),
            ("postgresql://postgres:leakA7leakB9@[::1/postgres", "libpq cannot read the address"),
            ("host=127.0.0.1 port=\(server.port) user=postgres password=leakA7 leakB9", "libpq cannot read the address"),
            ("host=127.0.0.1 port=\(server.port) user=postgres password='leakA7/leakB9-wrong' connect_timeout=5",
             "password authentication failed for user \"postgres\""),
        ]
        defer { unsetenv(Self.variable) }
        for (address, said) in cases {
            setenv(Self.variable, address, 1)
            let run = try await CommissaryProcess.run(["run", pipeline.path, "--workspace", folder.path, "--force",
                                                       "--events", folder.appendingPathComponent("events.jsonl").path])
            #expect(run.status == 5, "\(address): \(run.error)")
            #expect(run.error.contains("PostgreSQL was not updated") && run.error.contains(said)
                    && run.error.contains("$\(Self.variable)"), "\(address): \(run.error)")
            #expect(SecretTests.leaks(in: folder, except: ["secrets.yml"], outputs: ["stderr": run.error, "stdout": run.output])
                    == [], "\(address)")
        }

        // The password written as the refusals say (`/` as %2F) is read as written: the night
        // is published into PostgreSQL, and the password is still nowhere.
        setenv(Self.variable, "postgresql://postgres:leakA7%2FleakB9@\(hostPort)/postgres", 1)
        let run = try await CommissaryProcess.run(["run", pipeline.path, "--workspace", folder.path, "--force",
                                                   "--events", folder.appendingPathComponent("events.jsonl").path])
        #expect(run.status == 0, "\(run.error)")
        let events = try String(contentsOf: folder.appendingPathComponent("events.jsonl"), encoding: .utf8)
        #expect(events.contains("\"published_postgres\""))
        let files = FileManager.default.enumerator(atPath: folder.path)?.compactMap { $0 as? String } ?? []
        for kind in [".manifest.json", ".metadata.json", ".report.html", ".sqlite", "ledger.sqlite", "index.sqlite"] {
            #expect(files.contains { $0.hasSuffix(kind) }, "no \(kind) file was searched")
        }
        #expect(SecretTests.leaks(in: folder, except: ["secrets.yml"], outputs: ["stderr": run.error, "stdout": run.output])
                == [])
    }
}
