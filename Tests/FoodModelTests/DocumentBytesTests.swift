import Basics
import FoodModel
import Foundation
import Testing

/// Documents as the state ledger keeps them come back equal, field for field: a charset given
/// and absent, a URL with non-ASCII text, a 404 of no bytes, a list of none. Bytes it did not
/// write (the JSON of older ledgers, a list cut short, bytes after the list) are an error.
@Suite struct DocumentBytesTests {
    private static let documents = [
        SourceDocument(url: "https://menu.dining.ucla.edu/Menus/Covel/2026-10-12", fetchedAt: "2026-10-12T02:00:00Z",
                       status: 200, sha256: String(repeating: "a", count: 64), charset: "utf-8", byteCount: 306_716),
        SourceDocument(url: "file:///srv/menus/Café Crêpe/2026-10-12.html", fetchedAt: "2026-10-12T02:00:05.125Z",
                       status: 200, sha256: String(repeating: "b", count: 64), charset: nil, byteCount: 7_571),
        SourceDocument(url: "https://example.org/Recipes/100157/1", fetchedAt: "2026-10-12T02:00:06Z", status: 404,
                       sha256: String(repeating: "0", count: 64), charset: nil, byteCount: 0),
    ]

    @Test func documentsComeBackFieldForField() throws {
        #expect(try DocumentBytes.decode(DocumentBytes.encode(Self.documents)) == Self.documents)
        #expect(try DocumentBytes.decode(DocumentBytes.encode([])) == [])
        // One charset absent and one given are two documents.
        var other = Self.documents
        other[0].charset = nil
        #expect(try DocumentBytes.decode(DocumentBytes.encode(other)) != Self.documents)
    }

    @Test func bytesItDidNotWriteAreAnError() throws {
        let bytes = DocumentBytes.encode(Self.documents)
        let json = try JSONEncoder().encode(Self.documents)
        for (what, damaged) in [("JSON", json), ("cut short", bytes.prefix(bytes.count - 3)),
                                ("bytes after the list", bytes + Data([0])), ("nothing", Data())] {
            let error = #expect(throws: Failure.self, "\(what)") { try DocumentBytes.decode(damaged) }
            #expect(error?.code == .damagedBytes, "\(what)")
        }
    }
}
