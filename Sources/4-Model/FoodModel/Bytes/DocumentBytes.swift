import Basics
import Foundation

/// The documents a partition read, as the state ledger keeps them: each field in a fixed order
/// (`FieldWriter`). A night reads back every partition's documents before its first stage (a
/// year's ledger holds 2,500 of them, twice with the last good versions), and decoding them from
/// JSON took a tenth of a night with one day changed. `DocumentBytesTests` round-trips every
/// field, an absent charset among them.
public enum DocumentBytes {
    /// The first byte of what `encode` writes, telling it from the JSON of older ledgers (whose
    /// first byte is `[`) and from any text.
    static let format: UInt8 = 0x01

    public static func encode(_ documents: [SourceDocument]) -> Data {
        Data([format]) + FieldWriter.list(documents) { output, document in
            output.put(document.url)
            output.put(document.fetchedAt)
            output.put(document.status)
            output.put(document.sha256)
            output.put(document.charset)
            output.put(document.byteCount)
        }
    }

    /// Throws `Failure.damagedBytes` for bytes this did not write.
    public static func decode(_ data: Data) throws -> [SourceDocument] {
        guard data.first == format else { throw Failure.damagedBytes }
        return try FieldReader.list(data.dropFirst()) { input in
            try SourceDocument(url: input.string(), fetchedAt: input.string(), status: input.int(),
                               sha256: input.string(), charset: input.optionalString(), byteCount: input.int())
        }
    }
}
