import Basics
import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Bytes at a place in a file are read from that place, and only when asked: a span whose file
/// is gone, cut short or no longer a plain file reads as nothing, at once.
@Suite struct FileSpanTests {
    private func file(_ text: String, in folder: URL) throws -> URL {
        let url = folder.appendingPathComponent("entry")
        try Data(text.utf8).write(to: url)
        return url
    }

    @Test func aSpanReadsTheBytesAtItsPlace() throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = try file("head|the day's bytes|next day", in: folder)
        #expect(FileSpan(path: url.path, offset: 5, count: 15).read() == Data("the day's bytes".utf8))
        #expect(FileSpan(path: url.path, offset: 21, count: 8).read() == Data("next day".utf8))
        #expect(FileSpan(path: url.path, offset: 29, count: 0).read() == Data())
    }

    @Test func aSpanTheFileNoLongerHoldsReadsAsNothing() throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = try file("head|the day's bytes", in: folder)
        // One byte past the end, wholly past it, a negative place.
        #expect(FileSpan(path: url.path, offset: 5, count: 16).read() == nil)
        #expect(FileSpan(path: url.path, offset: 40, count: 1).read() == nil)
        #expect(FileSpan(path: url.path, offset: -1, count: 1).read() == nil)
        // Cut short after the span was taken.
        let span = FileSpan(path: url.path, offset: 5, count: 15)
        try Data("head|the day".utf8).write(to: url)
        #expect(span.read() == nil)
        try FileManager.default.removeItem(at: url)
        #expect(span.read() == nil)
    }

    /// A named pipe in the file's place fails the read rather than waiting for a writer.
    @Test func aNamedPipeInTheFilesPlaceReadsAsNothingAtOnce() throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let pipe = folder.appendingPathComponent("entry")
        #expect(mkfifo(pipe.path, 0o600) == 0)
        #expect(FileSpan(path: pipe.path, offset: 0, count: 4).read() == nil)
    }
}
