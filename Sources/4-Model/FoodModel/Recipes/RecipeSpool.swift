import Basics
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Recipes set aside in a scratch file as they are decoded, in the order read, for a catalogue
/// too large to hold (a dump of a million recipes): the write stage reads them back a batch at
/// a time. The value names the file; the file is the run's scratch and goes with the run.
public struct RecipeSpool: Hashable, Sendable, Codable {
    public var file: URL
    /// Where the recipes were read from (the dump), for what is reported about them.
    public var origin: String
    public var count: Int
    /// Every recipe's id greater than the one before (a dump as TheMealDB lists it): such a
    /// spool can be written as it is, without being sorted or searched for repeated ids.
    public var isInIdOrder: Bool

    /// Each batch is one frame: its length (4 bytes, little endian), then the batch as
    /// `RecipeBytes` wrote it.
    public final class Writer {
        private let handle: FileHandle
        private let file: URL
        private let origin: String
        private var count = 0
        private var lastID: RecipeID?
        private var isInIdOrder = true

        public init(file: URL, origin: String) throws {
            // Opened in place: `FileManager.createFile` writes through a temporary file beside it,
            // which a kill at that moment would leave in `staging/` under a name no sweep knows.
            let descriptor = open(file.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else {
                throw Failure.badInput("cannot create the scratch file for recipes: \(String(cString: strerror(errno)))",
                                       at: file.path)
            }
            handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
            self.file = file
            self.origin = origin
        }

        deinit {
            try? handle.close()
        }

        public func append(_ recipes: [Recipe]) throws {
            guard !recipes.isEmpty else { return }
            for recipe in recipes {
                if let lastID, !(lastID < recipe.id) { isInIdOrder = false }
                lastID = recipe.id
            }
            let batch = RecipeBytes.encode(recipes)
            guard let length = UInt32(exactly: batch.count) else {
                throw Failure.badInput("a batch of \(recipes.count) recipes is too large to set aside", at: origin)
            }
            var frame = Data(capacity: 4 + batch.count)
            withUnsafeBytes(of: length.littleEndian) { frame.append(contentsOf: $0) }
            frame.append(batch)
            try handle.write(contentsOf: frame)
            count += recipes.count
        }

        public func finish() throws -> RecipeSpool {
            try handle.close()
            return RecipeSpool(file: file, origin: origin, count: count, isInIdOrder: isInIdOrder)
        }
    }

    /// The recipes, a batch at a time, in the order they were set aside. The next batch is
    /// decoded on another thread while `body` has this one, so that decoding costs a writer
    /// little more than its inserts.
    public func forEachBatch(_ body: ([Recipe]) throws -> Void) throws {
        let handle = try FileHandle(forReadingFrom: file)
        defer { try? handle.close() }
        var read = 0
        var next = try nextFrame(handle, after: read).map(Self.decodeAhead)
        while let current = next {
            let recipes: [Recipe]
            do {
                recipes = try current.value()
            } catch {
                throw damaged(after: read)
            }
            read += recipes.count
            let following = Result { try nextFrame(handle, after: read).map(Self.decodeAhead) }
            try body(recipes)
            next = try following.get()
        }
        guard read == count else { throw damaged(after: read) }
    }

    /// A batch decoded on the thread `WorkAhead` shares, from the moment it is read.
    private static func decodeAhead(_ frame: Data) -> WorkAhead<[Recipe]> {
        WorkAhead { try RecipeBytes.decode(frame) }
    }

    /// The next frame's batch, still encoded; nil at the end of the file.
    private func nextFrame(_ handle: FileHandle, after read: Int) throws -> Data? {
        guard let header = try handle.read(upToCount: 4), !header.isEmpty else { return nil }
        guard header.count == 4 else { throw damaged(after: read) }
        let length = header.withUnsafeBytes { UInt32(littleEndian: $0.loadUnaligned(as: UInt32.self)) }
        guard let batch = try handle.read(upToCount: Int(length)), batch.count == Int(length) else {
            throw damaged(after: read)
        }
        return batch
    }

    private func damaged(after read: Int) -> Failure {
        Failure.badInput("the scratch file of recipes read from \(origin) ends after \(read) of \(count) recipes", at: file.path)
    }
}
