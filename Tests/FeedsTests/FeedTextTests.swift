@testable import Feeds
@testable import Snapshot
import Testing

/// The text rules every feed relies on: OpenMensa's 250-character limit, XML and iCalendar
/// escaping, RFC 5545's folding, and slugs.
@Suite struct FeedTextTests {
    @Test func aNameOverTheLimitIsShortenedWithAnEllipsisNeverRejected() {
        let long = String(repeating: "Crème brûlée ", count: 40)
        let limited = XMLText.limited(long)
        #expect(limited.unicodeScalars.count == 250)
        #expect(limited.hasSuffix("…"))
        #expect(long.hasPrefix(String(limited.dropLast())))
        #expect(XMLText.limited("Short  name\n") == "Short name")
    }

    @Test func xmlEscapingLeavesNoMarkupAndDropsWhatXMLCannotCarry() {
        #expect(XMLText.escape("Mac & \"Cheese\" <b>'s</b>\u{1}") == "Mac &amp; &quot;Cheese&quot; &lt;b&gt;&apos;s&lt;/b&gt;")
        #expect(XMLText.limited("\u{1}\u{2}") == "")
    }

    @Test func calendarTextIsEscapedAndFoldedAt75OctetsWithoutSplittingACharacter() {
        #expect(ICalendarText.escape("a\\b;c,d\ne") == "a\\\\b\\;c\\,d\\ne")
        let line = "DESCRIPTION:" + String(repeating: "é", count: 100)
        let folded = ICalendarText.fold(line)
        let lines = folded.components(separatedBy: "\r\n").dropLast()
        #expect(lines.allSatisfy { $0.utf8.count <= 75 })
        #expect(lines.dropFirst().allSatisfy { $0.hasPrefix(" ") })
        #expect(lines.enumerated().map { $0.offset == 0 ? $0.element : String($0.element.dropFirst()) }.joined() == line)
    }

    @Test func slugsAreLowerCaseASCIIWithTheCampusAndCollisionsNumberedInOrder() {
        #expect(Slug.make(name: "Café Bon Appétit", campus: "St. Olaf") == "cafe-bon-appetit-st-olaf")
        #expect(Slug.make(name: "Epicuria at Covel", campus: nil) == "epicuria-at-covel")
        #expect(Slug.make(name: "!!!", campus: nil) == "restaurant")
        let restaurants = [
            FeedRestaurant(id: 1, name: "A B", campus: nil, place: nil),
            FeedRestaurant(id: 2, name: "A-B", campus: nil, place: nil),
            FeedRestaurant(id: 3, name: "a b 2", campus: nil, place: nil),
        ]
        #expect(Slug.assign(restaurants) == [1: "a-b", 2: "a-b-3", 3: "a-b-2"])
    }
}
