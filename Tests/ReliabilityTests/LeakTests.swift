import Fetching
import Foundation
import GRDB
import Pipeline
import Testing
import TestSupport

/// What must never reach a published file, the raw store or a log line: files outside a source's
/// folder, response headers that carry secrets, credentials written into a URL.
@Suite struct LeakTests {
    /// Every record line and every body the raw store holds, as text.
    private func rawStoreText(_ raw: URL) throws -> String {
        let lines = try DatabaseQueue(path: raw.appendingPathComponent("index.sqlite").path).read { db in
            try String.fetchAll(db, sql: "SELECT line FROM record")
        }
        let packs = raw.appendingPathComponent("packs")
        let bodies = try FileManager.default.contentsOfDirectory(atPath: packs.path).map { name in
            String(decoding: try Data(contentsOf: packs.appendingPathComponent(name)), as: UTF8.self)
        }
        return (lines + bodies).joined(separator: "\n")
    }

    /// A recipe page of the site replaced by a link to a file outside the site's folder: the
    /// file is not read (that food is kept without its page, with a warning naming the link),
    /// and nothing of it reaches the raw store.
    @Test func aLinkOutOfASourceFolderIsNotFollowed() async throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let site = folder.appendingPathComponent("site")
        try FileManager.default.copyItem(at: Paths.sampleSite, to: site)
        let secret = folder.appendingPathComponent("secret.html")
        try Data("<html><body>SECRET-OUTSIDE-THE-SITE</body></html>".utf8).write(to: secret)
        let page = site.appendingPathComponent("Recipes/211045/1.html")
        try FileManager.default.removeItem(at: page)
        try FileManager.default.createSymbolicLink(at: page, withDestinationURL: secret)
        let pipeline = folder.appendingPathComponent("linked.yml")
        try Data("""
            pipeline: linked
            sources:
              - name: ucla-menu
                adapter: ucla-menu-site
                location: site
                dates: {from: 2026-10-10, to: 2026-10-12}
            """.utf8).write(to: pipeline)
        let report = try await runPipeline(try SpecReader.read(pipeline), workspace: folder)
        #expect(report.published)
        let warning = report.manifest.checks.first { $0.message.contains("Recipes/211045/1") }
        #expect(warning?.message.contains("outside the source's folder") == true, "\(String(describing: warning))")
        #expect(!(try rawStoreText(folder.appendingPathComponent("raw"))).contains("SECRET-OUTSIDE-THE-SITE"))
    }

    /// A server that sets cookies and echoes an API key: the raw store keeps the validators and
    /// the content type, and none of those headers.
    @Test func secretHeadersAreNotKept() async throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try TestHTTPServer(script: { request, _ in
            guard let body = SampleSite.page(request.path) else { return Reply(status: 404) }
            return Reply(headers: [("Content-Type", "text/html; charset=utf-8"), ("ETag", "\"v1-etag\""),
                                   ("Set-Cookie", "session=COOKIE-SECRET; HttpOnly"),
                                   ("X-Api-Key", "KEY-SECRET"), ("Authorization", "Bearer TOKEN-SECRET")],
                         body: body)
        })
        defer { server.stop() }
        let spec = try SampleSite.spec(name: "headers", base: server.url(""), in: folder)
        let report = try await runPipeline(spec, workspace: folder)
        #expect(report.published)
        let raw = try rawStoreText(folder.appendingPathComponent("raw"))
        #expect(raw.contains("v1-etag"))
        for secret in ["COOKIE-SECRET", "KEY-SECRET", "TOKEN-SECRET"] {
            #expect(!raw.contains(secret), "\(secret)")
        }
    }

    /// A password written into a location is refused where it stands, and the refusal does not
    /// repeat it.
    @Test func aPasswordInALocationIsRefusedWithoutBeingPrinted() async throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let pipeline = folder.appendingPathComponent("userinfo.yml")
        try Data(SampleSite.pipelineYAML(name: "userinfo", base: "http://menu:PASSWORD-IN-URL@127.0.0.1:9").utf8)
            .write(to: pipeline)
        let run = try await CommissaryProcess.run(["run", pipeline.path, "--workspace", folder.path])
        #expect(run.status == 1)
        #expect(run.error.contains("\(pipeline.path):5:") && run.error.contains("credentials_env"), "\(run.error)")
        #expect(!(run.error + run.output).contains("PASSWORD-IN-URL"))
    }

    /// A site that asks for a password gets it from the environment (`credentials_env`): the run
    /// publishes, and the password is in no file of the workspace and no line of output.
    @Test func credentialsFromTheEnvironmentReachTheSiteAndNothingElse() async throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let expected = "Basic " + Data("menu:S3CRET-FROM-ENV".utf8).base64EncodedString()
        let server = try TestHTTPServer(script: { request, _ in
            guard request.headers["authorization"] == expected else {
                return Reply(status: 401, headers: [("WWW-Authenticate", "Basic realm=\"menus\"")])
            }
            guard let body = SampleSite.page(request.path) else { return Reply(status: 404) }
            return Reply(headers: [("Content-Type", "text/html; charset=utf-8")], body: body)
        })
        defer { server.stop() }
        let pipeline = folder.appendingPathComponent("private.yml")
        let yaml = SampleSite.pipelineYAML(name: "private", base: server.url(""))
            .replacingOccurrences(of: "    adapter: ucla-menu-site\n", with: "    adapter: ucla-menu-site\n    credentials_env: MENU_CREDENTIALS\n")
        try Data(yaml.utf8).write(to: pipeline)
        let arguments = ["run", pipeline.path, "--workspace", folder.path, "--log-format", "json", "--date", "2026-10-11"]

        let missing = try await CommissaryProcess.run(arguments)
        #expect(missing.status == 1)
        #expect(missing.error.contains("MENU_CREDENTIALS is not set"), "\(missing.error)")

        setenv("MENU_CREDENTIALS", "menu:S3CRET-FROM-ENV", 1)
        defer { unsetenv("MENU_CREDENTIALS") }
        let run = try await CommissaryProcess.run(arguments)
        #expect(run.status == 0, "\(run.error)")
        #expect(!(run.error + run.output).contains("S3CRET"))
        let files = FileManager.default.enumerator(atPath: folder.path)?.compactMap { $0 as? String } ?? []
        for file in files where file != "private.yml" {
            let data = (try? Data(contentsOf: folder.appendingPathComponent(file))) ?? Data()
            #expect(data.range(of: Data("S3CRET-FROM-ENV".utf8)) == nil, "\(file)")
        }
    }
}
