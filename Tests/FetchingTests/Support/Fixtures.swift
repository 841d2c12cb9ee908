import Fetching
import Foundation
import Logging
import TestSupport

/// Real pages from the shared data folder beside the checkout, never copied into the project.
enum SharedData {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // Support
        .deletingLastPathComponent()  // FetchingTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()  // package root
        .deletingLastPathComponent()
        .appendingPathComponent("shared/data")

    static func bytes(_ relativePath: String) throws -> Data {
        try Data(contentsOf: root.appendingPathComponent(relativePath))
    }

    /// UTF-8, with a curly apostrophe and bullets: a page whose bytes betray a wrong charset.
    static let recipePage = "ucla-menu-2021/recipe-400317-bruin-cheeseburger-fragment.html"
    /// 114,917 bytes: large enough to trip a small size cap and worth compressing.
    static let overviewPage = "ucla-menu-2019/overview-2019-10-13-sunday.html"
}

/// A fresh folder under the system's temporary directory, removed by the caller.
func makeScratchFolder() throws -> URL {
    let folder = FileManager.default.temporaryDirectory
        .appendingPathComponent("commissary-fetching-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder
}

/// Compresses with the system's gzip, so the client decodes what a real server would send.
func gzipped(_ data: Data) throws -> Data {
    let folder = try makeScratchFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("body")
    try data.write(to: file)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/gzip")
    process.arguments = ["-n", "-k", file.path]
    try process.runWithSignalsUnblocked()
    process.waitUntilExit()
    return try Data(contentsOf: folder.appendingPathComponent("body.gz"))
}

/// Tests log nowhere; the source only needs a logger to be handed one.
let silentLogger = Logger(label: "commissary.fetching.tests", factory: { _ in SwiftLogNoOpLogHandler() })

extension HTTPPolicy {
    /// Every wait shrunk to milliseconds so faults are exercised quickly; no test may hang.
    static func quick(
        totalTimeout: Duration = .seconds(3), maxAttempts: Int = 3, maxBodyBytes: Int = 1 << 20,
        maxConcurrentPerHost: Int = 4, minDelayPerHost: Duration = .zero
    ) -> HTTPPolicy {
        HTTPPolicy(
            connectTimeout: .seconds(2), totalTimeout: totalTimeout, maxRedirects: 3,
            maxBodyBytes: maxBodyBytes, maxAttempts: maxAttempts, backoffBase: .milliseconds(10),
            maxRetryDelay: .seconds(2), maxConcurrentPerHost: maxConcurrentPerHost,
            minDelayPerHost: minDelayPerHost)
    }
}
