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
