import Foundation

/// The one JSON shape of everything people and scripts read from Commissary (run events,
/// manifests, dry-run plans, `parse`, `snapshots`, `diff`): snake_case keys as in the snapshot's
/// own tables, sorted so that two outputs diff cleanly, slashes left unescaped. Dictionaries
/// keyed by data (row counts by table) keep their keys as they are.
public enum UserJSON {
    public static func encoder(indented: Bool = false) -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = indented ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            : [.sortedKeys, .withoutEscapingSlashes]
        encoder.keyEncodingStrategy = .convertToSnakeCase
        return encoder
    }

    /// One value on one line (an event, a listed row, a dry run's plan), for a reader that
    /// streams; `{}` for a value that cannot be encoded, so that a line is never missing.
    public static func line(_ value: some Encodable) -> String {
        (try? String(decoding: lineEncoder.encode(value), as: UTF8.self)) ?? "{}"
    }

    /// One encoder for every line: a run writes one for each of its events, two or three for
    /// each partition, and making an encoder for each cost as much as the encoding.
    private static let lineEncoder = encoder()

    /// Reads back what `encoder` wrote (a manifest, an event line).
    public static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return decoder
    }
}
