import Basics
import Foundation
import Testing
@testable import Fetching

@Suite struct DirectorySourceTests {
    /// A scratch folder holding `site/pages/` (the source's folder) and `outside/` beside it.
    private func siteBesideAnOutsideFolder() throws -> (scratch: URL, site: URL, outside: URL) {
        let scratch = try makeScratchFolder()
        let site = scratch.appendingPathComponent("site")
        let outside = scratch.appendingPathComponent("outside")
        for folder in [site.appendingPathComponent("pages"), outside] {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }
        return (scratch, site, outside)
    }

    @Test func urlPathNamesAFileWithItsExtensionOptional() async throws {
        let source = DirectorySource(root: SharedData.root)
        let document = try await source.fetch("https://menu.dining.ucla.edu/ucla-menu-2021/detailed-menu-fragment")
        // `sha256sum ucla-menu-2021/detailed-menu-fragment.html`
        #expect(document.sha256 == "67b9b1d54f64368e2fe384520da71149234ad022ecd8dff5facec1f987c88e23")
        #expect(document.status == 200)
    }

    @Test func queryStringBecomesPartOfTheFileName() async throws {
        let folder = try makeScratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let api = folder.appendingPathComponent("api/json/v1/1")
        try FileManager.default.createDirectory(at: api, withIntermediateDirectories: true)
        let lookup = try SharedData.bytes("themealdb/responses/lookup-52771.json")
        try lookup.write(to: api.appendingPathComponent("lookup.php@i=52771.json"))

        let document = try await DirectorySource(root: folder)
            .fetch("https://www.themealdb.com/api/json/v1/1/lookup.php?i=52771")
        #expect(document.body == lookup)
    }

    @Test func folderServesItsIndexPage() async throws {
        let folder = try makeScratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("Hours"), withIntermediateDirectories: true)
        try Data("<html>hours</html>".utf8).write(to: folder.appendingPathComponent("Hours/index.html"))

        let document = try await DirectorySource(root: folder).fetch("https://dining.ucla.edu/Hours/#today")
        #expect(document.body == Data("<html>hours</html>".utf8))
    }

    @Test(arguments: ["https://x.example/../SOURCES.md", "https://x.example/themealdb/../../data/SOURCES.md", "/./SOURCES.md"])
    func traversalIsRefused(url: String) async throws {
        let error = await #expect(throws: Failure.self) {
            try await DirectorySource(root: SharedData.root.appendingPathComponent("themealdb")).fetch(url)
        }
        #expect(error?.code == .invalidURL)
    }

    /// A file that is there but cannot be read is the machine's failure, not an unreachable
    /// site. `/proc/self/mem` is a regular file whose first bytes no read can have (EIO), which
    /// shows it where permissions cannot (the tests run as root).
    @Test func aFileThatCannotBeReadIsAFileSystemFailure() async throws {
        let source = DirectorySource(root: URL(fileURLWithPath: "/proc/self"))
        for read in [{ try await source.fetch("https://x.test/mem") },
                     { try await source.stream("https://x.test/mem") { _ in } }] as [() async throws -> Any] {
            let failure = await #expect(throws: Failure.self) { _ = try await read() }
            #expect(failure?.code == .fileSystem && failure?.code.meansUnreachable == false)
            #expect(failure?.message.contains("/mem: Input/output error") == true)
        }
    }

    @Test func missingFileIsNotFound() async throws {
        let error = await #expect(throws: Failure.self) {
            try await DirectorySource(root: SharedData.root).fetch("https://x.example/no/such/page")
        }
        #expect(error?.code == .notFound)
    }

    /// The path a URL names under the folder, as the byte reader finds it: scheme and host
    /// dropped, a fragment cut, the first `?` written `@`, empty segments skipped, and a path
    /// that climbs or names nothing refused.
    @Test func aURLNamesItsFileUnderTheFolder() throws {
        let cases = [
            ("https://menu.dining.ucla.edu/Menus/2026-10-12", "Menus/2026-10-12"),
            ("file:///data//menus/Menus/2026-10-12", "data/menus/Menus/2026-10-12"),
            ("/api/json/1/search.php?f=a", "api/json/1/search.php@f=a"),
            ("https://x.test/lookup?q=a/b&c=d?e", "lookup@q=a/b&c=d?e"),
            ("https://x.test/page#part?x=1", "page"),
            ("https://x.test/ré/食/page.html", "ré/食/page.html"),
            ("Recipes/400317/1", "Recipes/400317/1"),
        ]
        for (url, path) in cases {
            #expect(try DirectorySource.relativePath(of: url) == path, "\(url)")
        }
        for url in ["https://x.test/a/../b", "https://x.test/./a", "https://x.test/", "https://x.test", "/a/\u{0}b"] {
            #expect(throws: Failure.self, "\(url)") { try DirectorySource.relativePath(of: url) }
        }
    }

    /// Links are followed where they stay in the source's folder and refused where they lead
    /// out of it, whether the link is the file itself or a folder on its way; a name that is a
    /// folder is not read as a page, and a named pipe is refused as one, by name.
    @Test func linksAreReadOnlyWhereTheyStayInTheFolder() async throws {
        let (scratch, site, outside) = try siteBesideAnOutsideFolder()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let manager = FileManager.default
        try Data("inside".utf8).write(to: site.appendingPathComponent("pages/real.html"))
        try Data("secret".utf8).write(to: outside.appendingPathComponent("secret.html"))
        try manager.createSymbolicLink(atPath: site.appendingPathComponent("pages/alias.html").path,
                                       withDestinationPath: "real.html")
        try manager.createSymbolicLink(atPath: site.appendingPathComponent("pages/leak.html").path,
                                       withDestinationPath: outside.appendingPathComponent("secret.html").path)
        try manager.createSymbolicLink(atPath: site.appendingPathComponent("mirror").path,
                                       withDestinationPath: site.appendingPathComponent("pages").path)
        try manager.createSymbolicLink(atPath: site.appendingPathComponent("away").path, withDestinationPath: outside.path)
        try manager.createDirectory(at: site.appendingPathComponent("pages/folder.html"), withIntermediateDirectories: true)
        #expect(mkfifo(site.appendingPathComponent("pages/pipe.html").path, 0o644) == 0)
        let source = DirectorySource(root: site)

        #expect(try await source.fetch("https://x.test/pages/alias").body == Data("inside".utf8))
        #expect(try await source.fetch("https://x.test/mirror/real").body == Data("inside".utf8))
        for url in ["https://x.test/pages/leak", "https://x.test/away/secret"] {
            let refused = await #expect(throws: Failure.self, "\(url)") { try await source.fetch(url) }
            #expect(refused?.code == .invalidURL, "\(url)")
        }
        // A folder is no page; a named pipe is not waited on (this would hang) but refused, saying
        // what it is.
        let folder = await #expect(throws: Failure.self) { try await source.fetch("https://x.test/pages/folder.html") }
        #expect(folder?.code == .notFound)
        let pipe = await #expect(throws: Failure.self) { try await source.fetch("https://x.test/pages/pipe") }
        #expect(pipe?.code == .badInput)
        #expect(pipe?.message == "\(site.path)/pages/pipe.html is a FIFO, not a regular file; it is not read",
                "\(String(describing: pipe))")
    }

    /// A folder the source has read from, swapped for a link that leads out of the source's
    /// folder while the source is still in use, is refused like any other such link: what is
    /// checked is where the open file is, not what was found of its folder before.
    @Test func aFolderSwappedForALinkOutsideIsRefused() async throws {
        let (scratch, site, outside) = try siteBesideAnOutsideFolder()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let manager = FileManager.default
        try Data("inside".utf8).write(to: site.appendingPathComponent("pages/day.html"))
        try Data("secret".utf8).write(to: outside.appendingPathComponent("day.html"))
        let source = DirectorySource(root: site)
        #expect(try await source.fetch("https://x.test/pages/day").body == Data("inside".utf8))

        try manager.removeItem(at: site.appendingPathComponent("pages"))
        try manager.createSymbolicLink(atPath: site.appendingPathComponent("pages").path, withDestinationPath: outside.path)
        let refused = await #expect(throws: Failure.self) { try await source.fetch("https://x.test/pages/day") }
        #expect(refused?.code == .invalidURL)
        #expect(refused?.message.contains(outside.appendingPathComponent("day.html").path) == true,
                "\(String(describing: refused))")
    }

    /// The short way to a file: one call under a folder held open, which opens a regular file
    /// lying under it, passes over what is no file, and leaves to the long way every name with
    /// a link on it (even one that stays inside) and every path outside the folders.
    @Test func theShortWayOpensOnlyWhatNoLinkLeadsTo() throws {
        let (scratch, site, outside) = try siteBesideAnOutsideFolder()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let manager = FileManager.default
        try Data("inside".utf8).write(to: site.appendingPathComponent("pages/real.html"))
        try manager.createSymbolicLink(atPath: site.appendingPathComponent("pages/alias.html").path,
                                       withDestinationPath: "real.html")
        try manager.createSymbolicLink(atPath: site.appendingPathComponent("mirror").path,
                                       withDestinationPath: site.appendingPathComponent("pages").path)
        try manager.createDirectory(at: site.appendingPathComponent("pages/folder.html"), withIntermediateDirectories: true)
        let sitePath = site.resolvingSymlinksInPath().path + "/"
        let folders = ConfinedFolders([sitePath])

        #expect(folders.folder(of: outside.resolvingSymlinksInPath().path + "/page.html") == nil)
        let folder = try #require(folders.folder(of: sitePath + "pages/real.html"))
        #expect(folder.rest == "pages/real.html")
        guard case .file(let descriptor, let status) = folders.openFile(folder.rest, under: folder.descriptor) else {
            Issue.record("pages/real.html was not opened")
            return
        }
        close(descriptor)
        #expect(status.st_size == 6)
        for name in ["pages/missing.html", "pages/folder.html", "nowhere/real.html"] {
            guard case .absent = folders.openFile(name, under: folder.descriptor) else {
                Issue.record("\(name) is not absent")
                continue
            }
        }
        for name in ["pages/alias.html", "mirror/real.html"] {
            guard case .undecided = folders.openFile(name, under: folder.descriptor) else {
                Issue.record("\(name), behind a link, was not left to the long way")
                continue
            }
        }
    }
}
