import Basics
import Foundation

/// Recipes set aside in a scratch file as they are decoded, in the order read, for a catalogue
/// too large to hold (a dump of a million recipes): the write stage reads them back a batch at
/// a time. The value names the file; the file is the run's scratch and goes with the run.
public struct RecipeSpool: Hashable, Sendable, Codable {
    public var file: URL
    /// Where the recipes were read from (the dump), for what is reported about them.
    public var origin: String
    public var count: Int

    /// Each batch is one frame: its length (4 bytes, little endian), then the batch as
    /// `CompactCoder` wrote it.
    public final class Writer {
        private let handle: FileHandle
        private let file: URL
        private let origin: String
        private var count = 0

        public init(file: URL, origin: String) throws {
            guard FileManager.default.createFile(atPath: file.path, contents: nil) else {
                throw InputError("cannot create the scratch file for recipes", at: file.path)
            }
            handle = try FileHandle(forWritingTo: file)
            self.file = file
            self.origin = origin
        }

        deinit {
            try? handle.close()
        }

        public func append(_ recipes: [Recipe]) throws {
            guard !recipes.isEmpty else { return }
            let batch = try CompactCoder.encode(recipes)
            guard let length = UInt32(exactly: batch.count) else {
                throw InputError("a batch of \(recipes.count) recipes is too large to set aside", at: origin)
            }
            var frame = Data(capacity: 4 + batch.count)
            withUnsafeBytes(of: length.littleEndian) { frame.append(contentsOf: $0) }
            frame.append(batch)
            try handle.write(contentsOf: frame)
            count += recipes.count
        }

        public func finish() throws -> RecipeSpool {
            try handle.close()
            return RecipeSpool(file: file, origin: origin, count: count)
        }
    }

    /// The recipes, a batch at a time, in the order they were set aside.
    public func forEachBatch(_ body: ([Recipe]) throws -> Void) throws {
        let handle = try FileHandle(forReadingFrom: file)
        defer { try? handle.close() }
        var read = 0
        while let header = try handle.read(upToCount: 4), !header.isEmpty {
            guard header.count == 4 else { throw damaged(after: read) }
            let length = header.withUnsafeBytes { UInt32(littleEndian: $0.loadUnaligned(as: UInt32.self)) }
            guard let batch = try handle.read(upToCount: Int(length)), batch.count == Int(length) else {
                throw damaged(after: read)
            }
            let recipes = try CompactCoder.decode([Recipe].self, from: batch)
            read += recipes.count
            try body(recipes)
        }
        guard read == count else { throw damaged(after: read) }
    }

    private func damaged(after read: Int) -> InputError {
        InputError("the scratch file of recipes read from \(origin) ends after \(read) of \(count) recipes", at: file.path)
    }
}
