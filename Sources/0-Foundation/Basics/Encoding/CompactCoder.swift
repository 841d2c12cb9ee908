import Foundation

/// A binary form of any `Codable` value, for data a program writes and reads back itself (the
/// run's parse cache): JSON spends most of its time formatting and parsing numbers and text,
/// which a copy the program alone reads does not need.
///
/// Every value is a frame: a 4-byte little-endian length, then that many bytes (a length of
/// `0xFFFF_FFFF` is a nil). A keyed container is a run of key frames each followed by its value
/// frame, so keys may be read in any order and listed (`allKeys`, which dictionaries with text
/// keys need); an unkeyed container is a run of value frames. Numbers are their 8 bytes (little
/// endian), text is its UTF-8. The reader checks every length against what is left, so damaged
/// bytes are a `DecodingError`, never a crash; callers still check a digest of what they stored,
/// since damage that keeps every length intact decodes into other values.
///
/// Nested containers and super-encoders are refused (`EncodingError`): no type stored with it
/// asks for them.
public enum CompactCoder {
    public static func encode<T: Encodable>(_ value: T) throws -> Data {
        let output = Output()
        try output.frame(value)
        return Data(output.bytes)
    }

    public static func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        let input = Input(bytes: [UInt8](data))
        guard let root = try input.frames(in: 0..<input.bytes.count).first, input.bytes.count >= 4 else {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "no value"))
        }
        return try input.value(type, in: root, codingPath: [])
    }

    fileprivate static let nilLength = UInt32.max
}

// MARK: - Writing

private final class Output {
    /// One encoding call owns its output and appends from one thread: the run-time exclusivity
    /// check every append would otherwise pay guards nothing.
    @exclusivity(unchecked) var bytes: [UInt8] = []

    /// Writes `value` as one frame.
    func frame<T: Encodable>(_ value: T) throws {
        let start = bytes.count
        bytes.append(contentsOf: [0, 0, 0, 0])
        if !primitive(value) {
            let encoder = FrameEncoder(output: self)
            try value.encode(to: encoder)
            if encoder.isNil {
                bytes.removeSubrange(start + 4..<bytes.count)
                patch(at: start, CompactCoder.nilLength)
                return
            }
        }
        patch(at: start, UInt32(bytes.count - start - 4))
    }

    func nilFrame() {
        append(CompactCoder.nilLength)
    }

    func text(_ string: String) {
        var string = string
        string.withUTF8 { utf8 in
            append(UInt32(utf8.count))
            bytes.append(contentsOf: utf8)
        }
    }

    /// The content of a frame for the types the format writes raw; false for any other. Types
    /// are told apart by their metatypes (a pointer comparison each): casting the value to each
    /// candidate in turn cost every struct a dozen failed dynamic casts.
    func primitive<T: Encodable>(_ value: T) -> Bool {
        if T.self == String.self {
            var string = unsafeBitCast(value, to: String.self)
            string.withUTF8 { bytes.append(contentsOf: $0) }
        } else if T.self == Int.self {
            append(UInt64(bitPattern: Int64(unsafeBitCast(value, to: Int.self))))
        } else if T.self == Double.self {
            append(unsafeBitCast(value, to: Double.self).bitPattern)
        } else if T.self == Bool.self {
            bytes.append(unsafeBitCast(value, to: Bool.self) ? 1 : 0)
        } else if T.self == Int64.self {
            append(UInt64(bitPattern: unsafeBitCast(value, to: Int64.self)))
        } else if T.self == UInt64.self {
            append(unsafeBitCast(value, to: UInt64.self))
        } else if T.self == Int32.self {
            append(UInt64(bitPattern: Int64(unsafeBitCast(value, to: Int32.self))))
        } else if T.self == UInt32.self {
            append(UInt64(unsafeBitCast(value, to: UInt32.self)))
        } else if T.self == Int16.self {
            append(UInt64(bitPattern: Int64(unsafeBitCast(value, to: Int16.self))))
        } else if T.self == UInt16.self {
            append(UInt64(unsafeBitCast(value, to: UInt16.self)))
        } else if T.self == Int8.self {
            append(UInt64(bitPattern: Int64(unsafeBitCast(value, to: Int8.self))))
        } else if T.self == UInt8.self {
            append(UInt64(unsafeBitCast(value, to: UInt8.self)))
        } else if T.self == UInt.self {
            append(UInt64(unsafeBitCast(value, to: UInt.self)))
        } else if T.self == Float.self {
            append(Double(unsafeBitCast(value, to: Float.self)).bitPattern)
        } else {
            return false
        }
        return true
    }

    func append(_ value: UInt32) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    func append(_ value: UInt64) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    private func patch(at offset: Int, _ value: UInt32) {
        withUnsafeBytes(of: value.littleEndian) { raw in
            for index in 0..<4 { bytes[offset + index] = raw[index] }
        }
    }
}

/// Encodes one value's content into the frame its caller opened.
private final class FrameEncoder: Encoder {
    let output: Output
    /// Set by a single-value container's `encodeNil`: the frame becomes a nil.
    var isNil = false
    let codingPath: [any CodingKey] = []
    let userInfo: [CodingUserInfoKey: Any] = [:]

    init(output: Output) {
        self.output = output
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(KeyedFrames<Key>(output: output))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        UnkeyedFrames(output: output)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleFrame(encoder: self)
    }
}

private func unsupported(_ what: String, _ codingPath: [any CodingKey]) -> EncodingError {
    EncodingError.invalidValue(what, .init(codingPath: codingPath, debugDescription: "CompactCoder does not write \(what)"))
}

private struct KeyedFrames<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let output: Output
    let codingPath: [any CodingKey] = []

    mutating func encodeNil(forKey key: Key) throws {
        output.text(key.stringValue)
        output.nilFrame()
    }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        output.text(key.stringValue)
        try output.frame(value)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
        -> KeyedEncodingContainer<NestedKey> {
        KeyedEncodingContainer(Refused<NestedKey>())
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        Refused<Key>()
    }

    mutating func superEncoder() -> any Encoder {
        RefusedEncoder()
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        RefusedEncoder()
    }
}

private struct UnkeyedFrames: UnkeyedEncodingContainer {
    let output: Output
    let codingPath: [any CodingKey] = []
    private(set) var count = 0

    init(output: Output) {
        self.output = output
    }

    mutating func encodeNil() throws {
        output.nilFrame()
        count += 1
    }

    mutating func encode<T: Encodable>(_ value: T) throws {
        try output.frame(value)
        count += 1
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
        -> KeyedEncodingContainer<NestedKey> {
        KeyedEncodingContainer(Refused<NestedKey>())
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        Refused<AnyKey>()
    }

    mutating func superEncoder() -> any Encoder {
        RefusedEncoder()
    }
}

private struct SingleFrame: SingleValueEncodingContainer {
    let encoder: FrameEncoder
    let codingPath: [any CodingKey] = []

    mutating func encodeNil() throws {
        encoder.isNil = true
    }

    mutating func encode<T: Encodable>(_ value: T) throws {
        if !encoder.output.primitive(value) {
            try value.encode(to: encoder)
        }
    }
}

private struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int?
    init(stringValue: String) { self.stringValue = stringValue }
    init(intValue: Int) { (stringValue, self.intValue) = ("\(intValue)", intValue) }
}

/// What a nested container or super-encoder request gets: every write fails with a clear error.
private struct Refused<Key: CodingKey>: KeyedEncodingContainerProtocol, UnkeyedEncodingContainer {
    let codingPath: [any CodingKey] = []
    let count = 0

    mutating func encodeNil(forKey key: Key) throws { throw unsupported("nested containers", codingPath) }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        throw unsupported("nested containers", codingPath)
    }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
        -> KeyedEncodingContainer<NestedKey> { KeyedEncodingContainer(Refused<NestedKey>()) }
    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer { self }
    mutating func superEncoder(forKey key: Key) -> any Encoder { RefusedEncoder() }
    mutating func encodeNil() throws { throw unsupported("nested containers", codingPath) }
    mutating func encode<T: Encodable>(_ value: T) throws { throw unsupported("nested containers", codingPath) }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
        -> KeyedEncodingContainer<NestedKey> { KeyedEncodingContainer(Refused<NestedKey>()) }
    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { self }
    mutating func superEncoder() -> any Encoder { RefusedEncoder() }
}

private struct RefusedEncoder: Encoder {
    let codingPath: [any CodingKey] = []
    let userInfo: [CodingUserInfoKey: Any] = [:]
    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(Refused<Key>())
    }
    func unkeyedContainer() -> any UnkeyedEncodingContainer { Refused<AnyKey>() }
    func singleValueContainer() -> any SingleValueEncodingContainer { RefusedSingle() }
}

private struct RefusedSingle: SingleValueEncodingContainer {
    let codingPath: [any CodingKey] = []
    mutating func encodeNil() throws { throw unsupported("super-encoders", codingPath) }
    mutating func encode<T: Encodable>(_ value: T) throws { throw unsupported("super-encoders", codingPath) }
}

// MARK: - Reading

private final class Input {
    let bytes: [UInt8]

    init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// The frames laid end to end in `range`: each one's content, or nil for a nil.
    func frames(in range: Range<Int>) throws -> [Range<Int>?] {
        var frames: [Range<Int>?] = []
        var offset = range.lowerBound
        while offset < range.upperBound {
            let (frame, next) = try self.frame(at: offset, within: range.upperBound)
            frames.append(frame)
            offset = next
        }
        return frames
    }

    func frame(at offset: Int, within end: Int) throws -> (Range<Int>?, next: Int) {
        guard end - offset >= 4 else { throw corrupt("a frame's length runs past its container") }
        let length = UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16
            | UInt32(bytes[offset + 3]) << 24
        if length == CompactCoder.nilLength { return (nil, offset + 4) }
        let start = offset + 4
        guard Int(length) <= end - start else { throw corrupt("a frame runs past its container") }
        return (start..<start + Int(length), start + Int(length))
    }

    func text(_ range: Range<Int>) -> String {
        String(decoding: bytes[range], as: UTF8.self)
    }

    func word(_ range: Range<Int>) throws -> UInt64 {
        guard range.count == 8 else { throw corrupt("a number is not 8 bytes") }
        var value: UInt64 = 0
        for index in range.reversed() { value = value << 8 | UInt64(bytes[index]) }
        return value
    }

    /// The value of the frame `range`. Raw types are told apart by their metatypes; the coding
    /// path is built only for the containers that keep it.
    func value<T: Decodable>(_ type: T.Type, in range: Range<Int>?, codingPath: @autoclosure () -> [any CodingKey])
        throws -> T {
        guard let range else {
            // An optional reads its nil through a single-value container.
            return try T(from: FrameDecoder(input: self, range: nil, codingPath: codingPath()))
        }
        if T.self == String.self { return unsafeBitCast(text(range), to: T.self) }
        if T.self == Int.self { return unsafeBitCast(Int(Int64(bitPattern: try word(range))), to: T.self) }
        if T.self == Double.self { return unsafeBitCast(Double(bitPattern: try word(range)), to: T.self) }
        if T.self == Bool.self {
            guard range.count == 1 else { throw corrupt("a flag is not 1 byte") }
            return unsafeBitCast(bytes[range.lowerBound] != 0, to: T.self)
        }
        if T.self == Int64.self { return unsafeBitCast(Int64(bitPattern: try word(range)), to: T.self) }
        if T.self == UInt64.self { return unsafeBitCast(try word(range), to: T.self) }
        if T.self == Int32.self { return unsafeBitCast(try narrow(Int32.self, in: range), to: T.self) }
        if T.self == UInt32.self { return unsafeBitCast(try narrow(UInt32.self, in: range), to: T.self) }
        if T.self == Int16.self { return unsafeBitCast(try narrow(Int16.self, in: range), to: T.self) }
        if T.self == UInt16.self { return unsafeBitCast(try narrow(UInt16.self, in: range), to: T.self) }
        if T.self == Int8.self { return unsafeBitCast(try narrow(Int8.self, in: range), to: T.self) }
        if T.self == UInt8.self { return unsafeBitCast(try narrow(UInt8.self, in: range), to: T.self) }
        if T.self == UInt.self { return unsafeBitCast(try narrow(UInt.self, in: range), to: T.self) }
        if T.self == Float.self { return unsafeBitCast(Float(Double(bitPattern: try word(range))), to: T.self) }
        return try T(from: FrameDecoder(input: self, range: range, codingPath: codingPath()))
    }

    /// Narrower integers and Float, read through their 8-byte form.
    func narrow<T: FixedWidthInteger>(_ type: T.Type, in range: Range<Int>) throws -> T {
        let word = try word(range)
        let value: T? = T.isSigned ? T(exactly: Int64(bitPattern: word)) : T(exactly: word)
        guard let value else { throw corrupt("\(word) does not fit in \(T.self)") }
        return value
    }

    func corrupt(_ why: String) -> DecodingError {
        DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: why))
    }
}

private struct FrameDecoder: Decoder {
    let input: Input
    /// The frame's content; nil for a nil.
    let range: Range<Int>?
    let codingPath: [any CodingKey]
    let userInfo: [CodingUserInfoKey: Any] = [:]

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard let range else { throw input.corrupt("a nil where a keyed container was expected") }
        return KeyedDecodingContainer(try KeyedReader<Key>(input: input, range: range, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard let range else { throw input.corrupt("a nil where a list was expected") }
        return UnkeyedReader(input: input, frames: try input.frames(in: range), codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        SingleReader(input: input, range: range, codingPath: codingPath)
    }
}

private final class KeyedReader<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let input: Input
    let codingPath: [any CodingKey]
    private let keys: [String]
    private let values: [Range<Int>?]
    /// Where the next key is most likely to be: values are read in the order they were written.
    private var cursor = 0

    init(input: Input, range: Range<Int>, codingPath: [any CodingKey]) throws {
        self.input = input
        self.codingPath = codingPath
        let frames = try input.frames(in: range)
        guard frames.count % 2 == 0 else { throw input.corrupt("a key without its value") }
        var keys: [String] = []
        var values: [Range<Int>?] = []
        keys.reserveCapacity(frames.count / 2)
        values.reserveCapacity(frames.count / 2)
        for index in stride(from: 0, to: frames.count, by: 2) {
            guard let key = frames[index] else { throw input.corrupt("a nil key") }
            keys.append(input.text(key))
            values.append(frames[index + 1])
        }
        self.keys = keys
        self.values = values
    }

    var allKeys: [Key] { keys.compactMap { Key(stringValue: $0) } }

    func contains(_ key: Key) -> Bool {
        keys.contains(key.stringValue)
    }

    private func frame(_ key: Key) throws -> Range<Int>? {
        let name = key.stringValue
        let index: Int
        if cursor < keys.count, keys[cursor] == name {
            index = cursor
        } else if let found = keys.firstIndex(of: name) {
            index = found
        } else {
            throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "no value for \(name)"))
        }
        cursor = index + 1
        return values[index]
    }

    func decodeNil(forKey key: Key) throws -> Bool {
        let name = key.stringValue
        if cursor < keys.count, keys[cursor] == name { return values[cursor] == nil }
        guard let index = keys.firstIndex(of: name) else { return true }
        return values[index] == nil
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try input.value(type, in: try frame(key), codingPath: codingPath + [key])
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
        -> KeyedDecodingContainer<NestedKey> {
        throw input.corrupt("CompactCoder does not read nested containers")
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        throw input.corrupt("CompactCoder does not read nested containers")
    }

    func superDecoder() throws -> any Decoder {
        throw input.corrupt("CompactCoder does not read super-decoders")
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        throw input.corrupt("CompactCoder does not read super-decoders")
    }
}

private struct UnkeyedReader: UnkeyedDecodingContainer {
    let input: Input
    let frames: [Range<Int>?]
    let codingPath: [any CodingKey]
    private(set) var currentIndex = 0

    init(input: Input, frames: [Range<Int>?], codingPath: [any CodingKey]) {
        self.input = input
        self.frames = frames
        self.codingPath = codingPath
    }

    var count: Int? { frames.count }
    var isAtEnd: Bool { currentIndex >= frames.count }

    private mutating func next() throws -> Range<Int>? {
        guard !isAtEnd else { throw input.corrupt("a list ends before its last value") }
        defer { currentIndex += 1 }
        return frames[currentIndex]
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, frames[currentIndex] == nil else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try input.value(type, in: try next(), codingPath: codingPath)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
        -> KeyedDecodingContainer<NestedKey> {
        throw input.corrupt("CompactCoder does not read nested containers")
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw input.corrupt("CompactCoder does not read nested containers")
    }

    mutating func superDecoder() throws -> any Decoder {
        throw input.corrupt("CompactCoder does not read super-decoders")
    }
}

private struct SingleReader: SingleValueDecodingContainer {
    let input: Input
    let range: Range<Int>?
    let codingPath: [any CodingKey]

    func decodeNil() -> Bool { range == nil }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        guard let range else { throw input.corrupt("a nil where a \(T.self) was expected") }
        return try input.value(type, in: range, codingPath: codingPath)
    }
}
