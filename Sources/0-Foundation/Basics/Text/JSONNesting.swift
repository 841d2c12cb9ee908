import Foundation

/// How deep every JSON reader lets arrays and objects nest, and the one line that says a
/// document went deeper. Real documents nest a handful of levels (a change set five, a Nutrislice
/// week seven); a crafted one nested 20,000 deep ended `changes --since` with SIGSEGV when the
/// reader recursed without a limit.
///
/// Foundation's readers (JSONSerialization, JSONDecoder) stop at this same depth on their own,
/// with an error that reads like any malformed document (measured with Swift 6.3: 513, 20,000
/// and 2,000,000 nested arrays are refused, none crashes), so the readers of source documents
/// scan the bytes only once decoding has failed, to say why.
public enum JSONNesting {
    public static let limit = 512

    /// The byte offset of the first `[` or `{` that opens a level deeper than `limit`, outside
    /// strings; nil when the bytes never nest so deep. One pass, whatever else is wrong with them.
    public static func firstTooDeep(_ bytes: some Collection<UInt8>) -> Int? {
        var depth = 0, inString = false, escaped = false
        for (offset, byte) in bytes.enumerated() {
            if inString {
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true }
                else if byte == UInt8(ascii: "\"") { inString = false }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
                if depth > limit { return offset }
            case UInt8(ascii: "]"), UInt8(ascii: "}"): depth = max(depth - 1, 0)
            default: break
            }
        }
        return nil
    }

    /// The failure for `bytes` when they nest deeper than `limit`, naming `location` and the
    /// byte; nil when they do not, and the reader's own words say what is wrong.
    public static func failure(_ bytes: some Collection<UInt8>, location: String) -> Failure? {
        firstTooDeep(bytes).map { offset in
            Failure.badInput("arrays and objects nested deeper than \(limit) at byte \(offset): no real document "
                             + "nests so deep", at: location)
        }
    }
}
