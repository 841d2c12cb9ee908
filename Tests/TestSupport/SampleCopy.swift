import Basics
import Foundation

/// The bundled sample pipeline over a copy of SampleData in a test's workspace, so the test may
/// edit the pages between runs; `extra` is appended to the pipeline file. Here, in TestSupport,
/// because the pipeline, report and PostgreSQL tests all make one.
public enum SampleCopy {
    public static func make(in workspace: URL, adding extra: String = "") throws -> (spec: URL, site: URL) {
        let pipelines = workspace.appendingPathComponent("Pipelines")
        try FileManager.default.createDirectory(at: pipelines, withIntermediateDirectories: true)
        for folder in ["standards", "plans", "terms", "places", "nutrition"] {
            try FileManager.default.createSymbolicLink(at: pipelines.appendingPathComponent(folder),
                                                       withDestinationURL: Paths.pipelines.appendingPathComponent(folder))
        }
        try FileManager.default.copyItem(at: Paths.sampleData, to: workspace.appendingPathComponent("SampleData"))
        let spec = pipelines.appendingPathComponent("sample.yml")
        let text = try String(contentsOf: Paths.pipelines.appendingPathComponent("sample.yml"), encoding: .utf8)
        try Data((text + extra).utf8).write(to: spec)
        return (spec, workspace.appendingPathComponent("SampleData/menu.dining.ucla.edu"))
    }

    /// Takes the first `<li class="menu-item">…</li>` off the day's page of the copied site (on
    /// 2026-10-11, Brunch's first item): one menu item deleted, the items after it moved up.
    public static func removeFirstMenuItem(on day: String, of site: URL) throws {
        let page = site.appendingPathComponent("Menus/\(day).html")
        let html = try String(contentsOf: page, encoding: .utf8)
        // Thrown rather than required: TestSupport is linked into the benchmark harness too,
        // which does not link swift-testing.
        guard let start = html.range(of: "<li class=\"menu-item\">"),
              let end = html.range(of: "</li>", range: start.upperBound..<html.endIndex) else {
            throw Failure.badInput("no <li class=\"menu-item\">…</li> to remove", at: page.path)
        }
        try Data(html.replacingCharacters(in: start.lowerBound..<end.upperBound, with: "").utf8).write(to: page)
    }
}
