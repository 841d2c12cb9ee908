import Basics
import Foundation
import GRDB
import TestSupport
import Testing
@testable import Fetching

/// Documents read in pieces (`DocumentSource.stream`): a file of any size passes from its folder
/// through the raw store to a reader without being held whole.
@Suite struct StreamedDocumentTests {
    /// `sha256sum` of the real dump written eight times over, computed outside the code under
    /// test; 8 × 1,186,157 bytes, so it passes in three pieces of at most 4 MiB.
    static let eightDumpsDigest = "2d391e2259cb13bdcd591e8236d21de9306d365d036b3cb512d7e4c7a4a2f697"
    static let eightDumpsBytes = 9_489_256

    /// A folder holding `big.json`: the real dump eight times over.
    func folderWithBigFile() throws -> (folder: URL, bytes: Data) {
        let folder = try makeScratchFolder()
        let dump = try SharedData.bytes("themealdb/meals-dump-442.json")
        var bytes = Data(capacity: 8 * dump.count)
        for _ in 0..<8 { bytes.append(dump) }
        try bytes.write(to: folder.appendingPathComponent("files/big.json", isDirectory: false).creatingFolder())
        return (folder, bytes)
    }

    @Test func aFileIsReadInPiecesThatJoinToItsBytes() async throws {
        let (folder, bytes) = try folderWithBigFile()
        defer { try? FileManager.default.removeItem(at: folder) }
        var pieces: [Int] = []
        var joined = Data()
        let record = try await DirectorySource(root: folder.appendingPathComponent("files")).stream("file:///big.json") {
            pieces.append($0.count)
            joined.append($0)
        }
        #expect(pieces == [4 << 20, 4 << 20, Self.eightDumpsBytes - 8 << 20])
        #expect(joined == bytes)
        #expect(record.sha256 == Self.eightDumpsDigest)
        #expect(record.size == Self.eightDumpsBytes)
        #expect(record.status == 200)
    }

    @Test func aStreamedDocumentIsStoredAndReadBackInPieces() async throws {
        let (folder, bytes) = try folderWithBigFile()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = RawStore(root: folder.appendingPathComponent("raw"))
        let source = StoringSource(upstream: DirectorySource(root: folder.appendingPathComponent("files")), store: store)
        let url = "file:///big.json"
        let record = try await source.stream(url) { _ in }

        #expect(try store.latestRecord(for: url)?.sha256 == Self.eightDumpsDigest)
        #expect(try store.latestDocument(for: url)?.body == bytes)
        var replayed = Data()
        try store.streamBody(of: record) { replayed.append($0) }
        #expect(replayed == bytes)
    }

    @Test func aBodyTheStoreHasIsNotKeptTwice() async throws {
        let (folder, _) = try folderWithBigFile()
        defer { try? FileManager.default.removeItem(at: folder) }
        let raw = folder.appendingPathComponent("raw")
        let source = StoringSource(upstream: DirectorySource(root: folder.appendingPathComponent("files")),
                                   store: RawStore(root: raw))
        _ = try await source.stream("file:///big.json") { _ in }
        _ = try await source.stream("file:///big.json") { _ in }

        let packs = try FileManager.default.contentsOfDirectory(atPath: raw.appendingPathComponent("packs").path)
        #expect(packs.count == 1)
        let size = try FileManager.default.attributesOfItem(
            atPath: raw.appendingPathComponent("packs/\(packs[0])").path)[.size] as? Int
        #expect(size == Self.eightDumpsBytes)
        #expect(try RawStore(root: raw).records(for: "file:///big.json").count == 2)
    }

    @Test func aReaderThatFailsLeavesNothingStored() async throws {
        let (folder, _) = try folderWithBigFile()
        defer { try? FileManager.default.removeItem(at: folder) }
        let raw = folder.appendingPathComponent("raw")
        let source = StoringSource(upstream: DirectorySource(root: folder.appendingPathComponent("files")),
                                   store: RawStore(root: raw))
        struct Refused: Error {}
        var seen = 0
        await #expect(throws: Refused.self) {
            _ = try await source.stream("file:///big.json") { _ in
                seen += 1
                if seen == 2 { throw Refused() }
            }
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: raw.appendingPathComponent("packs").path).isEmpty)
        #expect(try RawStore(root: raw).records(for: "file:///big.json").isEmpty)
    }

    @Test func aDamagedBodyFailsItsReadAndIsDroppedFromTheIndex() async throws {
        let (folder, _) = try folderWithBigFile()
        defer { try? FileManager.default.removeItem(at: folder) }
        let raw = folder.appendingPathComponent("raw")
        let store = RawStore(root: raw)
        let source = StoringSource(upstream: DirectorySource(root: folder.appendingPathComponent("files")), store: store)
        let record = try await source.stream("file:///big.json") { _ in }
        let pack = try FileManager.default.contentsOfDirectory(atPath: raw.appendingPathComponent("packs").path)[0]
        let handle = try FileHandle(forUpdating: raw.appendingPathComponent("packs/\(pack)"))
        try handle.seek(toOffset: 6_000_000)
        try handle.write(contentsOf: Data("damage".utf8))
        try handle.close()

        #expect {
            try store.streamBody(of: record) { _ in }
        } throws: { error in
            "\(error)".contains("packs/\(pack.dropLast(5)).pack is missing or no longer matches its sha256")
        }
        #expect {
            try store.body(of: record)
        } throws: { error in
            "\(error)".contains("is not stored (dropped when found damaged); fetch it again")
        }
    }

    @Test func partialPacksOfProcessesThatAreGoneAreRemoved() async throws {
        let (folder, _) = try folderWithBigFile()
        defer { try? FileManager.default.removeItem(at: folder) }
        let raw = folder.appendingPathComponent("raw")
        let packs = raw.appendingPathComponent("packs")
        try FileManager.default.createDirectory(at: packs, withIntermediateDirectories: true)
        // A process that has exited stands for a run killed mid-stream; process 1 still runs.
        let exited = Process()
        exited.executableURL = URL(fileURLWithPath: "/bin/true")
        try exited.runWithSignalsUnblocked()
        exited.waitUntilExit()
        let abandoned = "1700000000-\(exited.processIdentifier)-7.pack.partial"
        let running = "1700000000-1-8.pack.partial"
        for name in [abandoned, running] {
            try Data("half a dump".utf8).write(to: packs.appendingPathComponent(name))
        }
        let source = StoringSource(upstream: DirectorySource(root: folder.appendingPathComponent("files")),
                                   store: RawStore(root: raw))
        _ = try await source.stream("file:///big.json") { _ in }

        let left = try FileManager.default.contentsOfDirectory(atPath: packs.path)
        #expect(!left.contains(abandoned))
        #expect(left.contains(running))
        // The body streamed now: under its final name, nothing partial of its own left.
        #expect(left.filter { $0.hasSuffix(".pack") }.count == 1)
        #expect(left.filter { $0.hasSuffix(".partial") } == [running])
    }

    @Test func aWholeDocumentSourceHandsItsBodyOverInPieces() async throws {
        struct Whole: DocumentSource {
            let body: Data
            func fetch(_ url: String) async throws -> FetchedDocument {
                FetchedDocument(url: url, status: 203, headers: ["set-cookie": "secret", "etag": "\"e\""], body: body,
                                charset: nil, fetchedAt: Date())
            }
        }
        let body = Data(repeating: 0x61, count: (4 << 20) + 10)
        var pieces: [Int] = []
        let record = try await Whole(body: body).stream("https://example.invalid/a") { pieces.append($0.count) }
        #expect(pieces == [4 << 20, 10])
        #expect(record.status == 203)
        #expect(record.size == body.count)
        #expect(record.headers == ["etag": "\"e\""])
    }
}

private extension URL {
    /// The URL, after creating the folder it is in.
    func creatingFolder() throws -> URL {
        try FileManager.default.createDirectory(at: deletingLastPathComponent(), withIntermediateDirectories: true)
        return self
    }
}
