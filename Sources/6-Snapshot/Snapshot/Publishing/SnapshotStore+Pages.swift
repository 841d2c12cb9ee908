import Basics
import Foundation

/// The report pages of a pipeline's nights: each published snapshot's page beside it, a page for a
/// night that published nothing, and one stable name for the newest of them, so that a bookmark
/// never shows "Good" for a night that came after it and failed.
extension SnapshotStore {
    /// The page of a night that published nothing: `<pipeline>-<run id>.not-published.html`.
    public static let notPublishedSuffix = ".not-published.html"

    /// `latest-<pipeline>.report.html`: the newest night's page, the published snapshot's or the
    /// page of a night that published nothing after it.
    public func latestReportLink(pipeline: String) -> URL {
        directory.appendingPathComponent("latest-\(pipeline)\(Self.reportSuffix)")
    }

    /// Writes the page of a night of `pipeline` that published nothing, read-only, and points the
    /// newest page's name at it.
    @discardableResult
    public func writeNotPublishedPage(_ page: String, pipeline: String, runId: String) throws -> URL {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let written = try writeBeside(directory.appendingPathComponent("\(pipeline)-\(runId)"), suffix: Self.notPublishedSuffix,
                                      Data(page.utf8))
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: written.path)
        try pointLatestReport(pipeline: pipeline, at: written.lastPathComponent)
        return written
    }

    /// Points `latest-<pipeline>.report.html` at `page`, a file of the folder, through a new link
    /// renamed over the old one; then removes the pages of earlier nights that published nothing
    /// (only the newest night is told; the snapshots' pages stay with their snapshots).
    public func pointLatestReport(pipeline: String, at page: String) throws {
        let link = latestReportLink(pipeline: pipeline)
        let newLink = directory.appendingPathComponent(".\(link.lastPathComponent).new")
        try? FileManager.default.removeItem(at: newLink)
        do {
            try Durability.symlink(named: newLink.path, to: page)
            try Durability.rename(from: newLink.path, to: link.path)
        } catch {
            try? FileManager.default.removeItem(at: newLink)
            throw error
        }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        for name in names where name != page && isNotPublishedPage(name, pipeline: pipeline) {
            try? FileManager.default.removeItem(at: directory.appendingPathComponent(name))
        }
    }

    /// Whether `name` is the page of a night of `pipeline` that published nothing (the run id
    /// after the name is matched too, so `sample` never takes `sample-menus`' pages).
    private func isNotPublishedPage(_ name: String, pipeline: String) -> Bool {
        guard name.hasPrefix(pipeline + "-"), name.hasSuffix(Self.notPublishedSuffix) else { return false }
        let runId = name.dropFirst(pipeline.count + 1).dropLast(Self.notPublishedSuffix.count)
        return !runId.isEmpty && runId.allSatisfy { $0.isASCII && ($0.isNumber || $0.isLowercase) }
    }
}
