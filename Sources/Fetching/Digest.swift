import Crypto
import Foundation

/// Lower-case hex SHA-256: the content address of raw documents and the input hashes of a run.
public func sha256Hex(_ data: Data) -> String {
    let hexDigits = Array("0123456789abcdef".utf8)
    var text = [UInt8]()
    text.reserveCapacity(64)
    for byte in SHA256.hash(data: data) {
        text.append(hexDigits[Int(byte >> 4)])
        text.append(hexDigits[Int(byte & 0x0f)])
    }
    return String(decoding: text, as: UTF8.self)
}
