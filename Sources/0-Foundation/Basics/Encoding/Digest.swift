import Crypto
import Foundation

/// Lower-case hex SHA-256: the content address of raw documents and the input hashes of a run.
public func sha256Hex(_ data: Data) -> String {
    lowercaseHex(SHA256.hash(data: data))
}

/// Bytes as lower-case hex, two digits each: how every sha256 is written here.
public func lowercaseHex(_ bytes: some Sequence<UInt8>) -> String {
    let hexDigits = Array("0123456789abcdef".utf8)
    var text = [UInt8]()
    text.reserveCapacity(64)
    for byte in bytes {
        text.append(hexDigits[Int(byte >> 4)])
        text.append(hexDigits[Int(byte & 0x0f)])
    }
    return String(decoding: text, as: UTF8.self)
}

/// A positive 48-bit integer derived from `text` (the first six bytes of its SHA-256): an id
/// that is the same in every run and every snapshot for the same name, whatever order names
/// arrive in, and exact in any JSON reader.
public func stableIdentifier(_ text: String) -> Int {
    SHA256.hash(data: Data(text.utf8)).prefix(6).reduce(0) { $0 << 8 | Int($1) } | 1
}

/// `sha256Hex` of bytes that arrive in pieces (a document too large to hold whole), fed in
/// order: the same digest as of the pieces joined.
public struct SHA256Stream {
    private var hasher = SHA256()
    public private(set) var byteCount = 0

    public init() {}

    public mutating func update(_ piece: Data) {
        hasher.update(data: piece)
        byteCount += piece.count
    }

    public var hex: String { lowercaseHex(hasher.finalize()) }
}
