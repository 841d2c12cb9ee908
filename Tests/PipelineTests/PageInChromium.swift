import Foundation
import Testing
import TestSupport

/// A report page as headless Chromium draws it at 1280 × 800: a copy of the page gets a script
/// that measures every SVG text and chart (getBBox against the chart's box, getBoundingClientRect
/// against the other texts), every clipped HTML box, where the headline ends and how tall the
/// checks are, and writes its findings into the page, which `--dump-dom` hands back. The page
/// itself carries no script; only the copy does. A screenshot of the whole page, 1280 px wide,
/// and the page itself are kept under `.build/test-artefacts/report/` for a reviewer.
struct PageInChromium {
    struct Measured: Decodable {
        var overflows: [String]
        var overlaps: [String]
        var clipped: [String]
        var bare: [String]
        var charts: Int
        var texts: Int
        var headlineBottom: Double
        var checksHeight: Double
        var pageHeight: Double
    }

    static let artefacts = Paths.packageRoot.appendingPathComponent(".build/test-artefacts/report")

    static var binary: String? {
        ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Measures `page` and keeps its screenshot as `<name>.png`; nil (and a recorded issue) without Chromium.
    static func inspect(_ page: URL, name: String) throws -> Measured? {
        guard let chromium = binary else {
            Issue.record("chromium is not installed (scripts/test installs Debian's chromium): the page was not drawn")
            return nil
        }
        let html = try String(contentsOf: page, encoding: .utf8)
        #expect(!html.contains("<script"), "the page itself carries no script")
        let copy = page.deletingLastPathComponent().appendingPathComponent("\(name).measured.html")
        try Data(html.replacingOccurrences(of: "</body>", with: "<script>\(script)</script></body>").utf8).write(to: copy)
        let dom = try run(chromium, ["--window-size=1280,800", "--dump-dom", copy.absoluteString])
        guard let start = dom.range(of: "<pre id=\"measured\">"),
              let end = dom.range(of: "</pre>", range: start.upperBound..<dom.endIndex) else {
            Issue.record("the measuring script wrote nothing into \(name)'s page")
            return nil
        }
        let json = dom[start.upperBound..<end.lowerBound].replacingOccurrences(of: "&lt;", with: "<")
            .replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&amp;", with: "&")
        let measured = try JSONDecoder().decode(Measured.self, from: Data(json.utf8))
        try FileManager.default.createDirectory(at: artefacts, withIntermediateDirectories: true)
        let screenshot = artefacts.appendingPathComponent("\(name).png")
        let kept = artefacts.appendingPathComponent("\(name).html")
        for file in [screenshot, kept] { try? FileManager.default.removeItem(at: file) }
        try FileManager.default.copyItem(at: page, to: kept)
        let height = Int(min(max(measured.pageHeight, 800), 16_000))
        _ = try run(chromium, ["--window-size=1280,\(height)", "--screenshot=\(screenshot.path)", page.absoluteString])
        let png = try Data(contentsOf: screenshot)
        #expect(png.count > 10_000 && png.prefix(4) == Data([0x89, 0x50, 0x4E, 0x47]))
        print("report screenshot of \(name): \(screenshot.path)")
        return measured
    }

    /// What every page must show: no text past its chart or on another, nothing clipped, every
    /// chart with axes or a key, and the headline within the first 1280 × 800 screen.
    static func expectLooksRight(_ measured: Measured, _ name: String) {
        #expect(measured.overflows.isEmpty, "\(name): texts past their chart: \(measured.overflows)")
        #expect(measured.overlaps.isEmpty, "\(name): texts on each other: \(measured.overlaps)")
        #expect(measured.clipped.isEmpty, "\(name): clipped boxes: \(measured.clipped)")
        #expect(measured.bare.isEmpty, "\(name): charts without axes or a key: \(measured.bare)")
        #expect(measured.headlineBottom > 0 && measured.headlineBottom <= 800, "\(name): the headline ends at \(measured.headlineBottom)")
    }

    private static func run(_ binary: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/timeout")
        process.arguments = ["120", binary, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars"] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.runWithSignalsUnblocked()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "chromium \(arguments)")
        return String(decoding: data, as: UTF8.self)
    }

    /// The measuring script, added to the copy only.
    static let script = #"""
(function () {
  const found = { overflows: [], overlaps: [], clipped: [], bare: [], charts: 0, texts: 0 };
  const name = (t) => JSON.stringify(t.textContent.slice(0, 60));
  document.querySelectorAll('svg.chart').forEach((svg, index) => {
    found.charts += 1;
    const chart = (svg.querySelector('title') || {}).textContent || String(index);
    const view = svg.viewBox.baseVal;
    const texts = [...svg.querySelectorAll('text')];
    found.texts += texts.length;
    texts.forEach((text) => {
      const box = text.getBBox();
      if (box.x < view.x - 0.5 || box.y < view.y - 0.5 || box.x + box.width > view.x + view.width + 0.5
          || box.y + box.height > view.y + view.height + 0.5) found.overflows.push(chart + ': ' + name(text));
    });
    const rects = texts.map((text) => text.getBoundingClientRect());
    for (let a = 0; a < rects.length; a++) for (let b = a + 1; b < rects.length; b++) {
      const w = Math.min(rects[a].right, rects[b].right) - Math.max(rects[a].left, rects[b].left);
      const h = Math.min(rects[a].bottom, rects[b].bottom) - Math.max(rects[a].top, rects[b].top);
      if (w > 1 && h > 1) found.overlaps.push(chart + ': ' + name(texts[a]) + ' and ' + name(texts[b]));
    }
    const axes = svg.querySelector('.axis') && svg.querySelector('.axis-title');
    if (!axes && !svg.querySelector('.legend')) found.bare.push(chart);
  });
  document.querySelectorAll('main *').forEach((element) => {
    if (element.closest('svg') || element.closest('details:not([open])')) return;
    const style = getComputedStyle(element);
    if (style.display === 'none' || element.tagName === 'DETAILS') return;
    if (element.scrollWidth > element.clientWidth + 1 && element.clientWidth > 0 && style.overflowX !== 'visible')
      found.clipped.push(element.tagName + ': ' + name(element));
  });
  if (document.documentElement.scrollWidth > window.innerWidth) found.clipped.push('the page is wider than the window');
  const box = (id) => { const e = document.getElementById(id); return e ? e.getBoundingClientRect() : null; };
  const headline = box('headline'), checks = box('checks');
  found.headlineBottom = headline ? headline.bottom + window.scrollY : -1;
  found.checksHeight = checks ? checks.height : -1;
  found.pageHeight = document.documentElement.scrollHeight;
  const out = document.createElement('pre');
  out.id = 'measured';
  out.textContent = JSON.stringify(found);
  document.body.appendChild(out);
})();
"""#
}
