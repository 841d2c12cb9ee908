import Basics
import Foundation
import HTML
import Testing
import TestSupport

@Suite struct HTMLDocumentTests {
    static let overviewPath = "ucla-menu-2019/overview-2019-10-13-sunday.html"
    static let recipePath = "ucla-menu-2021/recipe-400317-bruin-cheeseburger-fragment.html"

    @Test func selectsByIdAndClassOnTheRealOverviewPage() throws {
        let page = try HTMLDocument(parsing: SharedData.load(Self.overviewPath),
                                    location: Self.overviewPath)
        #expect(try page.texts("//h2[@id='page-header']") == [
            "Brunch Menu for Today, October 13, 2019",
            "Dinner Menu for Today, October 13, 2019",
        ])
        // `grep -c 'class="menu-item"'` on the saved page counts 50.
        #expect(try page.select("//li[\(XPathPredicate.hasClass("menu-item"))]").count == 50)
        // `menu-block third-col`: a class among several still matches.
        #expect(try page.select("//div[\(XPathPredicate.hasClass("menu-block"))]").count == 6)
        #expect(try page.select("//div[\(XPathPredicate.hasClass("menu"))]").isEmpty)
    }

    @Test func queriesRelativeToANodeAndReadsAttributes() throws {
        let page = try HTMLDocument(parsing: SharedData.load(Self.overviewPath),
                                    location: Self.overviewPath)
        let item = try #require(try page.first("//li[\(XPathPredicate.hasClass("menu-item"))]"))
        #expect(item.name == "li")
        let link = try #require(try item.first(".//a[\(XPathPredicate.hasClass("recipelink"))]"))
        #expect(link.text == "Egg White")
        #expect(link.attribute("href") == "http://menu.dining.ucla.edu/Recipes/061005/1")
        #expect(link.attribute("title") == nil)
        let codes = try item.texts(
            ".//span[\(XPathPredicate.hasClass("tooltip-target-wrapper"))]/img/@alt")
        #expect(codes == ["V", "AEGG"])
        let image = try #require(try item.first(".//img"))
        #expect(image.attributes == ["alt": "V", "class": "webcode-16px", "src": "./Menus_files/v.png"])
    }

    /// The walk and the class test agree with the XPath forms they stand in for, on the real page.
    @Test func aWalkWithClassTestsFindsWhatXPathFinds() throws {
        let page = try HTMLDocument(parsing: SharedData.load(Self.overviewPath),
                                    location: Self.overviewPath)
        let root = try #require(try page.first("/html"))
        var menuItems = 0
        var blocks = 0
        var imagesInsideMenuItems = 0
        root.forEachElement(below: false) { element, insideItem in
            if element.isElement(named: "li"), element.hasClass("menu-item") { menuItems += 1 }
            if element.isElement(named: "div"), element.hasClass("menu-block") { blocks += 1 }
            #expect(!element.hasClass("menu"), "\(element.name) has no class `menu`, only `menu-block` and the like")
            if insideItem, element.isElement(named: "img") { imagesInsideMenuItems += 1 }
            return insideItem || element.hasClass("menu-item")
        }
        #expect(menuItems == 50)
        #expect(blocks == 6)
        let imagesByXPath = try page.select("//li[\(XPathPredicate.hasClass("menu-item"))]//img").count
        #expect(imagesInsideMenuItems == imagesByXPath && imagesByXPath > 0)
    }

    /// `text(leavingOut:)` and `followingSibling(named:class:)` read a label box as the XPath
    /// forms they replaced did: on every paragraph and span of the real recipe page, and on a
    /// page made to trip them (nested and empty percentages, text between siblings, classes
    /// that only start like the wanted one, tabs in `class`).
    @Test func labelWalksAnswerAsTheirXPathForms() throws {
        let made = """
            <div class="nfbox">
            <p class="nfnutrient" id="a"><b>Total</b>  Fat<span class="nfdvval"><span class="nfdvvalnum">33</span>%</span> 21g</p>
            <p class="nfnutrient" id="b">Sodium <span class="nfdvval">12<i>%</i></span><span class="nfdvvalue">9</span></p>
            <p class="nfnutrient" id="c"><span class="nfdvval"></span></p>
            <p id="d">plain &amp; <em>nested <span class="x	nfdvval">kept?</span> text</em></p>
            <span class="nfvitname" id="e">Calcium</span> text <span class="nfvitpct2" id="f">1%</span>
            <b>between</b><span class="  nfvitpct " id="g">4%</span><span class="nfvitpct" id="h">5%</span>
            <div><span class="nfvitname" id="i">Iron</span></div>
            </div>
            """
        let pages = [
            try HTMLDocument(parsing: SharedData.load(Self.recipePath), location: Self.recipePath),
            try HTMLDocument(parsing: Data(made.utf8), location: "made"),
        ]
        var rows = 0
        var spans = 0
        for page in pages {
            let percentSpan = "span[\(XPathPredicate.hasClass("nfdvval"))]"
            for paragraph in try page.select("//p") {
                let byXPath = try paragraph.texts(".//text()[not(ancestor::\(percentSpan))]")
                    .joined(separator: " ").whitespaceNormalized
                #expect(paragraph.text { $0.isElement(named: "span") && $0.hasClass("nfdvval") } == byXPath)
                rows += 1
            }
            for span in try page.select("//span") {
                let byXPath = try span.first("following-sibling::span[\(XPathPredicate.hasClass("nfvitpct"))]")
                let walked = span.followingSibling(named: "span", class: "nfvitpct")
                #expect(walked?.text == byXPath?.text && walked?.attribute("id") == byXPath?.attribute("id"))
                spans += 1
            }
        }
        let page = pages[1]
        // By hand: the percentage is left out wherever it sits; other spans stay.
        #expect(try page.first("//p[@id='a']")?.text { $0.hasClass("nfdvval") } == "Total Fat 21g")
        #expect(try page.first("//p[@id='b']")?.text { $0.hasClass("nfdvval") } == "Sodium 9")
        #expect(try page.first("//p[@id='c']")?.text { $0.hasClass("nfdvval") } == "")
        #expect(try page.first("//p[@id='d']")?.text { $0.hasClass("nfdvval") } == "plain & nested text")
        #expect(try page.first("//span[@id='e']")?.followingSibling(named: "span", class: "nfvitpct")?
            .attribute("id") == "g")
        #expect(try page.first("//span[@id='i']")?.followingSibling(named: "span", class: "nfvitpct") == nil)
        // The real page: 13 `nfnutrient`/`nfvitname` lines (grep -c) among its paragraphs and spans.
        #expect(rows > 13 && spans > 13)
    }

    @Test func classTestsTakeWholeTokensSeparatedByAnyWhitespace() throws {
        let html = #"<div id="a" class="  menu-block&#9;third-col&#10;x"></div><p id="b" class="menu-item-wrapper"></p>"#
        let page = try HTMLDocument(parsing: Data(html.utf8), location: "inline")
        let block = try #require(try page.first("//div"))
        #expect(block.hasClass("menu-block") && block.hasClass("third-col") && block.hasClass("x"))
        #expect(!block.hasClass("menu") && !block.hasClass("col") && !block.hasClass(""))
        let paragraph = try #require(try page.first("//p"))
        #expect(!paragraph.hasClass("menu-item") && paragraph.hasClass("menu-item-wrapper"))
        #expect(block.isElement(named: "div") && !block.isElement(named: "p"))
    }

    @Test func elementsByTagAndClassCanStopAtAMatchOrACount() throws {
        let html = #"<ul><li class="x" id="1"><ul><li class="x" id="2"></li></ul></li><li class="x y" id="3"></li></ul>"#
        let page = try HTMLDocument(parsing: Data(html.utf8), location: "inline")
        let root = try #require(page.rootElement)
        #expect(root.elements(named: "li", class: "x").map { $0.attribute("id") } == ["1", "2", "3"])
        #expect(root.elements(named: "li", class: "x", nested: false).map { $0.attribute("id") } == ["1", "3"])
        #expect(root.elements(named: "li", class: "x", limit: 1).map { $0.attribute("id") } == ["1"])
        #expect(root.elements(named: "li", class: "y").map { $0.attribute("id") } == ["3"])
        #expect(root.elements(named: "ul", class: "x").isEmpty)
    }

    @Test func separatesAnElementsOwnTextFromItsChildren() throws {
        let page = try HTMLDocument(parsing: SharedData.load(Self.overviewPath),
                                    location: Self.overviewPath)
        let section = try #require(try page.first("//li[\(XPathPredicate.hasClass("sect-item"))]"))
        #expect(section.ownText == "Exhibition Kitchen")
        #expect(section.text.hasPrefix("Exhibition Kitchen Egg White"))
    }

    @Test func decodesEntitiesAndNormalizesNoBreakSpaces() throws {
        let page = try HTMLDocument(parsing: SharedData.load(Self.recipePath),
                                    location: Self.recipePath)
        // The page has "Serving Size 1&nbsp;each".
        #expect(try page.texts("//p[@class='nfserv']") == ["Serving Size 1 each"])
        let html = Data("<p>Turkey &amp; Rice\n\t  Soup&nbsp;&#160;</p>".utf8)
        let small = try HTMLDocument(parsing: html, location: "inline")
        #expect(try small.texts("//p") == ["Turkey & Rice Soup"])
    }

    @Test func keepsUnionResultsInDocumentOrder() throws {
        let page = try HTMLDocument(parsing: SharedData.load(Self.overviewPath),
                                    location: Self.overviewPath)
        let names = try page.select(
            "//h2[@id='page-header'] | //div[\(XPathPredicate.hasClass("menu-block"))]").map(\.name)
        #expect(names == ["h2", "div", "div", "div", "h2", "div", "div", "div"])
    }

    @Test func theTransportCharsetWinsOverTheDocumentsOwn() throws {
        let bytes = Data("<html><head><meta charset=\"utf-8\"></head><body><p>café</p></body></html>".utf8)
        #expect(try HTMLDocument(parsing: bytes, location: "a").texts("//p") == ["café"])
        #expect(try HTMLDocument(parsing: bytes, location: "b", charset: "ISO-8859-1")
            .texts("//p") == ["cafÃ©"])
        // A name libxml2 does not know leaves the page's own declaration in charge.
        #expect(try HTMLDocument(parsing: bytes, location: "c", charset: "no-such-charset")
            .texts("//p") == ["café"])
        let latin1 = Data([0x3C, 0x70, 0x3E, 0x63, 0x61, 0x66, 0xE9, 0x3C, 0x2F, 0x70, 0x3E])
        #expect(try HTMLDocument(parsing: latin1, location: "d", charset: "iso-8859-1")
            .texts("//p") == ["café"])
    }

    @Test func emptyInputIsAClearErrorNamingTheLocation() {
        let error = #expect(throws: Failure.self) {
            try HTMLDocument(parsing: Data(), location: "http://x/empty")
        }
        #expect(error?.code == .badInput && error?.description == "http://x/empty: the document is empty (0 bytes)")
    }

    @Test func arbitraryBytesNeverCrash() throws {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for length in [1, 2, 7, 64, 513, 4096] {
            var bytes = [UInt8]()
            for _ in 0..<length {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                bytes.append(UInt8(truncatingIfNeeded: state >> 56))
            }
            do {
                let page = try HTMLDocument(parsing: Data(bytes), location: "random-\(length)")
                #expect(try page.select("//li[\(XPathPredicate.hasClass("menu-item"))]").isEmpty)
            } catch let error as Failure {
                #expect(error.place?.location == "random-\(length)")
            }
        }
        for bytes: [UInt8] in [[0], [0, 0, 0, 0], [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]] {
            do {
                let page = try HTMLDocument(parsing: Data(bytes), location: "binary")
                #expect(try page.select("//h2[@id='page-header']").isEmpty)
                _ = try page.texts("//body//text()")
            } catch let error as Failure {
                #expect(error.place?.location == "binary")
            }
        }
    }

    @Test func aBadExpressionThrowsInsteadOfPrinting() throws {
        let page = try HTMLDocument(parsing: Data("<p>x</p>".utf8), location: "inline")
        let error = #expect(throws: Failure.self) { try page.select("//p[") }
        #expect(error?.place?.location == "inline")
        #expect(error?.message.contains("//p[") == true)
        #expect(throws: Failure.self) { try page.select("count(//p)") }
    }

    @Test func parsesDifferentDocumentsOnSeveralThreadsAtOnce() async throws {
        let bytes = try SharedData.load(Self.overviewPath)
        let counts = try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<8 {
                group.addTask {
                    let page = try HTMLDocument(parsing: bytes, location: "copy-\(index)")
                    return try page.select("//li[\(XPathPredicate.hasClass("menu-item"))]//img/@alt").count
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        let single = try HTMLDocument(parsing: bytes, location: "single")
            .select("//li[\(XPathPredicate.hasClass("menu-item"))]//img/@alt").count
        #expect(single > 100)
        #expect(counts == Array(repeating: single, count: 8))
    }
}
