import Basics
import Foundation
import HTML
import Testing
import TestSupport

/// A document keeps one XPath context and its compiled expressions; reusing them must answer
/// exactly as a fresh context would, wherever the previous query left off.
@Suite struct QueryReuseTests {
    static let overviewPath = "ucla-menu-2019/overview-2019-10-13-sunday.html"

    @Test func theSameRelativeQueryAnswersForEveryNode() throws {
        let page = try HTMLDocument(parsing: SharedData.load(Self.overviewPath), location: Self.overviewPath)
        let items = try page.select("//li[\(XPathPredicate.hasClass("menu-item"))]")
        let links = try items.map { try $0.select(".//a[\(XPathPredicate.hasClass("recipelink"))]") }
        // `grep -c 'class="menu-item"'` counts 50; each item holds exactly one recipe link.
        #expect(items.count == 50)
        #expect(links.allSatisfy { $0.count == 1 })
        #expect(links.first?.first?.text == "Egg White")
        #expect(links.dropFirst().first?.first?.text == "Omelet Bar")
        // A document-wide query after relative ones starts from the root again.
        #expect(try page.select("//h2[@id='page-header']").count == 2)
    }

    @Test func aFailedQueryLeavesLaterQueriesWorking() throws {
        let page = try HTMLDocument(parsing: Data("<div><p>one</p><p>two</p></div>".utf8), location: "inline")
        let paragraph = try #require(try page.first("//p"))
        #expect(throws: Failure.self) { try paragraph.select("./[") }
        #expect(throws: Failure.self) { try page.select("count(//p)") }
        #expect(try page.texts("//p") == ["one", "two"])
        #expect(try paragraph.texts("following-sibling::p") == ["two"])
        let again = #expect(throws: Failure.self) { try page.select("./[") }
        #expect(again?.message.contains("./[") == true)
    }

    @Test func asciiWhitespaceCollapsesAsCharacterWhitespaceDoes() {
        let samples = ["  a\t\tb\n", "\r\na\u{0B}b\u{0C}c\r", "x", "", "   ", "a\u{1F}b", "Total Fat  21.3g ",
                       "1\u{00A0}each", "caf\u{E9}  au lait", " \u{2003}em\u{2003}space "]
        for sample in samples {
            #expect(sample.whitespaceNormalized
                    == sample.split(whereSeparator: { $0.isWhitespace }).joined(separator: " "), "\(sample.debugDescription)")
        }
        #expect("  Total\n\tFat  21.3g ".whitespaceNormalized == "Total Fat 21.3g")
        #expect("a\u{1F}b".whitespaceNormalized == "a\u{1F}b")
    }
}
