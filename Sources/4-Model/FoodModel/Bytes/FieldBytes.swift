import Basics
import Foundation

/// Values laid end to end in a fixed order, for bytes the program writes and reads back itself
/// (the recipe spool, the parse cache's days) or only hashes (a day's rows): text as its UTF-8
/// after its length, numbers as their 8 bytes (little endian), an absent value as one byte 0
/// (a present one after a byte 1), a list after its count. The order of the fields is the
/// format, so no two different sequences of values give the same bytes.
public struct FieldWriter {
    public private(set) var bytes: [UInt8] = []

    public init() {}

    public mutating func put(_ value: Int) {
        withUnsafeBytes(of: Int64(value).littleEndian) { bytes.append(contentsOf: $0) }
    }

    public mutating func put(_ value: UInt64) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    /// A number as its 8 bytes (its IEEE 754 bit pattern), so that it comes back exactly.
    public mutating func put(_ value: Double) {
        put(value.bitPattern)
    }

    public mutating func put(_ value: Double?) {
        put(present: value != nil)
        if let value { put(value) }
    }

    /// Whether an optional value follows: what `put` writes before one.
    public mutating func put(present: Bool) {
        bytes.append(present ? 1 : 0)
    }

    public mutating func put(_ value: Int?) {
        put(present: value != nil)
        if let value { put(value) }
    }

    public mutating func put(_ text: String) {
        var text = text
        text.withUTF8 { utf8 in
            put(utf8.count)
            bytes.append(contentsOf: utf8)
        }
    }

    public mutating func put(_ text: String?) {
        put(present: text != nil)
        if let text { put(text) }
    }

    public mutating func put(_ texts: [String]) {
        put(texts.count)
        for text in texts { put(text) }
    }

    /// `values` after their count, each laid out by `put`: what `FieldReader.list` reads back.
    public static func list<Value>(_ values: [Value], _ put: (inout FieldWriter, Value) -> Void) -> Data {
        var output = FieldWriter()
        output.put(values.count)
        for value in values { put(&output, value) }
        return Data(output.bytes)
    }

    /// Appends bytes another writer laid out, after their count.
    public mutating func put(_ data: Data) {
        put(data.count)
        bytes.append(contentsOf: data)
    }
}

/// Reads what a `FieldWriter` wrote, field by field in the same order. Every length and count
/// is checked against what is left, so bytes it did not write are a `damagedBytes` failure, never a crash.
public struct FieldReader {
    private let bytes: UnsafeRawBufferPointer
    private var position = 0

    public init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    public var isAtEnd: Bool { position == bytes.count }

    /// What `FieldWriter.list` wrote: the count, each value read by `read`, and nothing after.
    public static func list<Value>(_ data: Data, _ read: (inout FieldReader) throws -> Value) throws -> [Value] {
        try data.withUnsafeBytes { buffer in
            var input = FieldReader(buffer)
            let values = try (0..<input.count()).map { _ in try read(&input) }
            guard input.isAtEnd else { throw Failure.damagedBytes }
            return values
        }
    }

    public mutating func uint64() throws -> UInt64 {
        guard bytes.count - position >= 8 else { throw Failure.damagedBytes }
        let value = bytes.loadUnaligned(fromByteOffset: position, as: UInt64.self)
        position += 8
        return UInt64(littleEndian: value)
    }

    public mutating func int() throws -> Int {
        Int(Int64(bitPattern: try uint64()))
    }

    public mutating func optionalInt() throws -> Int? {
        try flag() ? try int() : nil
    }

    public mutating func double() throws -> Double {
        Double(bitPattern: try uint64())
    }

    public mutating func optionalDouble() throws -> Double? {
        try flag() ? try double() : nil
    }

    /// A count of things still to read, each taking at least a byte: a larger one is damage.
    public mutating func count() throws -> Int {
        let count = try int()
        guard count >= 0, count <= bytes.count - position else { throw Failure.damagedBytes }
        return count
    }

    public mutating func flag() throws -> Bool {
        guard position < bytes.count else { throw Failure.damagedBytes }
        let value = bytes[position]
        position += 1
        guard value <= 1 else { throw Failure.damagedBytes }
        return value == 1
    }

    public mutating func string() throws -> String {
        let length = try count()
        let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[position..<(position + length)]),
                          as: UTF8.self)
        position += length
        return text
    }

    public mutating func optionalString() throws -> String? {
        try flag() ? try string() : nil
    }

    /// Passes over a text, as `string` reads it, without making it.
    public mutating func skipString() throws {
        position += try count()
    }

    public mutating func skipOptionalString() throws {
        if try flag() { try skipString() }
    }

    /// How far the reader has read.
    public var offset: Int { position }

    /// The bytes read since `start`, an earlier `offset` (none for a later one).
    public func bytes(from start: Int) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: bytes[Swift.min(Swift.max(start, 0), position)..<position])
    }

    public mutating func strings() throws -> [String] {
        try (0..<count()).map { _ in try string() }
    }

    public mutating func data() throws -> Data {
        let length = try count()
        defer { position += length }
        return Data(UnsafeRawBufferPointer(rebasing: bytes[position..<(position + length)]))
    }
}

extension Failure {
    /// Bytes a `FieldReader` was given that its writer did not write: a scratch or cache file
    /// cut short or altered after Commissary wrote it. The reader does not know the file; the
    /// caller that does gives the place.
    public static var damagedBytes: Failure {
        Failure(.damagedBytes, "data Commissary wrote for itself was cut short or altered since; run again to write it anew")
    }
}
