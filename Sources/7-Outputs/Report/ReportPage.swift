import Basics
import Foundation
import Snapshot

/// One self-contained HTML page about a snapshot (inline CSS and SVG, no script, opens offline):
/// a headline that says whether the night was good, then coverage, checks, label coverage,
/// changes since the previous snapshot, diets, nutrition, nutrition estimates, swipes and
/// recipes, each a chart with its numbers, or one line saying the snapshot has no such data.
public enum ReportPage {
    /// A part of the page: one function of the open snapshot, so a new part is one more entry.
    typealias Section = @Sendable (ReportContext) throws -> String

    static let sections: [Section] = [
        HeadlineSection.html, CoverageSection.html, ChecksSection.html, LabelCoverageSection.html,
        ChangesSection.html, DietsSection.html, NutritionSection.html, EstimatesSection.html, SwipesSection.html,
        RecipesSection.html,
    ]

    /// The page for `snapshot`; `previous` is the snapshot its changes are counted from.
    ///
    /// A run writes the page after `latest` has moved, and a stop asked for then (SIGTERM, which
    /// cancels the run's task) must not wait for it: the page stops between sections, and the
    /// run goes on to finish the publication without it.
    public static func html(for snapshot: URL, previous: URL?) throws -> String {
        document(for: snapshot, previous: previous, sections: try sections(of: snapshot, previous: previous))
    }

    /// The page's sections, read from `file`: what the page says, apart from where it lies. A
    /// run reads them from its new file while the file is verified, before it has its name
    /// (`document` puts them in the page of that name), and keeps its days' counts in `counts`
    /// for the next night's page (`ServedDayCounts`). `stopped` is asked between sections: a
    /// stop requested then ends the page, which then fails with `interrupted`.
    public static func sections(of file: URL, previous: URL?, counts: ServedDayCountsStore? = nil,
                                stopped: () -> Bool = { Task.isCancelled }) throws -> [String] {
        try ReportQueries.read(file) { queries in
            let context = ReportContext(queries: queries, served: try queries.servedItems(keeping: counts),
                                        snapshot: file, previous: previous)
            return try sections.map { section in
                if stopped() { throw Self.stopped }
                return try section(context)
            }
        }
    }

    /// Why a page was not finished: a stop asked for while it was read.
    public static let stopped = Failure(.interrupted, "stopped on request before the page was finished")

    /// The page of `snapshot` around its `sections`, with its feeds where they lie beside it.
    public static func document(for snapshot: URL, previous: URL?, sections: [String]) -> String {
        // Only where the feeds exist: without them the page is byte for byte what it was.
        let feeds = FeedsSection.html(for: snapshot).map { [$0] } ?? []
        return PageShell.document(name: snapshot.deletingPathExtension().lastPathComponent, previous: previous,
                                  sections: sections + feeds)
    }

    /// Writes the page to `file` (replacing it), read-only like the snapshot beside it.
    public static func write(for snapshot: URL, previous: URL?, to file: URL) throws {
        let page = try html(for: snapshot, previous: previous)
        do {
            try? FileManager.default.removeItem(at: file)
            try Data(page.utf8).write(to: file, options: .atomic)
            try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: file.path)
        } catch {
            throw Failure.fileSystem("cannot write the report page: \(SystemMessage.describe(error))", path: file.path)
        }
    }
}

/// What every section reads: the snapshot, open for its typed queries, its menu items counted
/// once for every chart, and the files the page is about.
struct ReportContext {
    let queries: ReportQueries
    let served: ServedItems
    let snapshot: URL
    let previous: URL?
}
