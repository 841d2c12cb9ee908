import Foundation
import Snapshot
import Testing
import TestSupport

/// `scripts/install`: a binary that runs where no Swift toolchain is. `scripts/test` installs the
/// debug build into `.build/install-check` before the tests run (linking it while tests run the
/// binary would swap it under them); run alone, `swift test` finds no install and skips these.
@Suite(.enabled(if: FileManager.default.isExecutableFile(atPath: InstallCheck.binary.path),
                "scripts/test installs into .build/install-check first"))
struct InstallTests {
    static let prefix = InstallCheck.prefix
    static let binary = InstallCheck.binary

    /// `readelf -d` names no Swift library among what the binary needs.
    @Test func theInstalledBinaryNeedsNoSwiftLibrary() throws {
        let needed = try Self.output(of: "/usr/bin/readelf", ["-d", Self.binary.path])
        #expect(needed.contains("(NEEDED)"), "\(needed)")
        #expect(!needed.contains("libswift") && !needed.contains("libFoundation"), "\(needed)")
        #expect(!needed.contains("/opt/swift") && !needed.contains("swift/linux"), "no run path into a toolchain: \(needed)")
    }

    /// With the toolchain's folder hidden (an empty folder mounted over it, in a mount namespace
    /// of its own), the installed binary runs the bundled sample pipeline copied to an unrelated
    /// folder, and publishes.
    @Test func theInstalledBinaryRunsTheSampleWithTheToolchainHidden() throws {
        let toolchain = try Self.toolchainRoot()
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // The sample pipeline and its pages only: its daily-value standard is found in the
        // install's share/commissary, beside the binary's folder.
        let share = Self.prefix.appendingPathComponent("share/commissary")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("Pipelines"), withIntermediateDirectories: true)
        for data in ["Pipelines/sample.yml", "SampleData"] {
            try FileManager.default.copyItem(at: share.appendingPathComponent(data), to: folder.appendingPathComponent(data))
        }
        let empty = folder.appendingPathComponent("empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        let script = """
            set -e
            mount --bind '\(empty.path)' '\(toolchain)'
            test -z "$(ls -A '\(toolchain)')"
            cd '\(folder.path)'
            '\(Self.binary.path)' run Pipelines/sample.yml --quiet
            """
        let said = try Self.output(of: "/usr/bin/unshare", ["-m", "/bin/sh", "-c", script])
        #expect(said.isEmpty, "\(said)")
        let latest = folder.appendingPathComponent("snapshots/latest-sample").path
        #expect(FileManager.default.fileExists(atPath: latest))
    }

    /// The README's cron line as cron runs it: `env -i` with cron's `PATH=/usr/bin:/bin` and a
    /// home folder that holds nothing, as a system service under `ProtectHome=yes` sees it. Its
    /// command (the installed binary by its full path) publishes the sample on the first night,
    /// quietly, with the recipes' estimates read from the reference the install put in
    /// `share/commissary`, where a bare `commissary` would not even be found.
    @Test func theREADMEsCronLineRunsUnderCronsEnvironmentWithTheEstimates() throws {
        let share = Self.prefix.appendingPathComponent("share/commissary")
        let reference = share.appendingPathComponent("usda-sr24.sqlite")
        #expect(FileManager.default.fileExists(atPath: reference.path), "scripts/install puts the reference in share/commissary")
        let readme = try String(contentsOf: Paths.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let line = try #require(readme.split(separator: "\n").first { $0.hasPrefix("15 2 * * *  cd /srv/commissary && ") })
        let command = String(try #require(line.range(of: "&& ").map { line[$0.upperBound...] }))
        #expect(command.hasPrefix("/usr/local/bin/commissary run Pipelines/nightly-ucla.yml "))
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("Pipelines"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: share.appendingPathComponent("SampleData"), to: folder.appendingPathComponent("SampleData"))
        // The sample stands in for the nightly pipeline, under the name the line gives.
        try FileManager.default.copyItem(at: share.appendingPathComponent("Pipelines/sample.yml"),
                                         to: folder.appendingPathComponent("Pipelines/nightly-ucla.yml"))
        let home = folder.appendingPathComponent("home")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        let installed = command.replacingOccurrences(of: "/usr/local/bin/commissary", with: Self.binary.path)
        let night = try ExternalProgram.run(URL(fileURLWithPath: "/usr/bin/env"), [
            "-i", "PATH=/usr/bin:/bin", "HOME=\(home.path)", "/bin/sh", "-c", "cd '\(folder.path)' && \(installed)",
        ])
        #expect(night.status == 0, "\(night.output)")
        #expect(night.output.isEmpty, "--quiet says nothing on a good night: \(night.output)")
        let latest = folder.appendingPathComponent("snapshots/latest-sample")
        let estimates = try QueryResult.run("SELECT count(*) FROM food_estimate", on: latest).rows
        #expect(estimates != [[.integer(0)]], "the estimates are there: \(estimates)")
        let missing = try QueryResult.run("SELECT count(*) FROM _checks WHERE name = 'nutrition_estimates' AND passed = 0",
                                          on: latest).rows
        #expect(missing == [[.integer(0)]])
    }

    /// The shells' completions are installed, each naming the commands.
    @Test func completionsAreInstalledForThreeShells() throws {
        for file in ["bash-completion/completions/commissary", "zsh/site-functions/_commissary",
                     "fish/vendor_completions.d/commissary.fish"] {
            let text = try String(contentsOf: Self.prefix.appendingPathComponent("share/" + file), encoding: .utf8)
            #expect(text.contains("snapshots") && text.contains("query"), "\(file)")
        }
    }

    /// The toolchain's root: two folders above the `swift` on the PATH (`/opt/swift/usr/bin/swift`).
    static func toolchainRoot() throws -> String {
        let swift = try #require((ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
            .map { URL(fileURLWithPath: String($0)).appendingPathComponent("swift").resolvingSymlinksInPath() }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) })
        return swift.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
    }

    /// Runs a program to its end; what it said, with an expectation of status 0.
    static func output(of program: String, _ arguments: [String]) throws -> String {
        let outcome = try ExternalProgram.run(URL(fileURLWithPath: program), arguments)
        #expect(outcome.status == 0, "\(program) \(arguments): \(outcome.output)")
        return outcome.output
    }}

/// Where `scripts/test` installs the build the tests check.
enum InstallCheck {
    static let prefix = Paths.packageRoot.appendingPathComponent(".build/install-check")
    static let binary = prefix.appendingPathComponent("bin/commissary")
}
