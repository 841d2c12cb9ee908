@testable import Fetching
import Foundation
import Testing

/// A record's line is written by hand (`FetchRecord.line`); it must be the line `JSONEncoder`
/// wrote before (sorted keys, slashes as they are, dates to the millisecond), so that the store's
/// history reads the same whichever wrote a record, and it must read back to the record.
@Suite struct FetchRecordLineTests {
    /// What the store wrote before the line was written by hand.
    static func encoderLine(_ record: FetchRecord) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            try container.encode(formatter.string(from: date))
        }
        return String(decoding: try encoder.encode(record), as: UTF8.self)
    }

    @Test func theLineIsTheEncodersAndReadsBack() throws {
        let awkward = "quote \" backslash \\ slash / tab \t newline \n return \r bell \u{07} escape \u{1B} "
            + "delete \u{7F} é 食 😀 \u{0C}\u{08}\u{1F}"
        let records = [
            FetchRecord(url: "https://menu.dining.ucla.edu/Menus/2026-10-12?x=1&y=%2F", status: 200,
                        headers: ["ETag": "\"abc\"", "last-modified": "Mon, 12 Oct 2026 02:00:00 GMT",
                                  "Content-Type": "text/html; charset=utf-8", "cache-control": "max-age=60"],
                        charset: "utf-8", sha256: String(repeating: "ab", count: 32), size: 123_456,
                        fetchedAt: Date(timeIntervalSince1970: 1_795_319_989.123_4), notModified: false),
            FetchRecord(url: "file:///data/" + awkward, status: 304, headers: ["etag": awkward], charset: nil,
                        sha256: String(repeating: "0", count: 64), size: 0,
                        fetchedAt: Date(timeIntervalSince1970: 0.999_6), notModified: true),
            FetchRecord(url: "", status: 404, headers: [:], charset: awkward, sha256: "", size: 0,
                        fetchedAt: Date(timeIntervalSince1970: 4_102_444_799.999), notModified: false),
        ]
        for record in records {
            let line = FetchRecord.line(of: record)
            #expect(line == (try Self.encoderLine(record)))
            let read = try FetchRecord.decode(Data(line.utf8))
            #expect(read.url == record.url && read.headers == record.headers && read.charset == record.charset)
            #expect(read.status == record.status && read.size == record.size && read.notModified == record.notModified)
            #expect(abs(read.fetchedAt.timeIntervalSince(record.fetchedAt)) < 0.000_5)
        }
        // Spelled out once, so a change of both writers alike is seen too.
        let plain = FetchRecord(url: "https://x.test/a/b", status: 200, headers: [:], charset: nil,
                                sha256: "ff", size: 3, fetchedAt: Date(timeIntervalSince1970: 0.25))
        #expect(FetchRecord.line(of: plain) == #"{"fetchedAt":"1970-01-01T00:00:00.250Z","headers":{},"#
            + #""notModified":false,"sha256":"ff","size":3,"status":200,"url":"https://x.test/a/b"}"#)
    }
}
