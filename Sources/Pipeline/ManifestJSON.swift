import Foundation

extension RunManifest {
    /// How manifests are written: pretty-printed with sorted keys, for people and for diffs.
    static func makeEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    /// The manifest as `makeEncoder()` writes it, byte for byte, without holding it twice.
    ///
    /// JSONEncoder builds a tree of the whole value before it writes a byte. With ten years of
    /// menus (5,771 inputs, 3,650 partitions) that tree was the largest thing alive at the run's
    /// peak (heaptrack: about 6 of 21 MB), and the only one that grows with the number of days.
    /// So the two long lists are encoded an element at a time into the text of the rest, with
    /// the indentation the encoder gives elements of a top-level list.
    func encodedJSON() throws -> Data {
        let encoder = Self.makeEncoder()
        var rest = self
        rest.inputs = []
        rest.partitions = []
        var text = try encoder.encode(rest)
        text = try Self.splice(inputs, as: "inputs", into: text, encoder: encoder)
        text = try Self.splice(partitions, as: "partitions", into: text, encoder: encoder)
        return text
    }

    private static func splice<Element: Encodable>(_ elements: [Element], as key: String, into text: Data,
                                                   encoder: JSONEncoder) throws -> Data {
        guard !elements.isEmpty else { return text }
        // How the encoder writes an empty list under a top-level key. Keys and strings are
        // escaped inside the text, so this cannot be found inside a value.
        let empty = Data("\"\(key)\" : [\n\n  ]".utf8)
        guard let place = text.range(of: empty) else {
            throw EncodingError.invalidValue(elements, .init(codingPath: [], debugDescription: "no \(key) in the manifest"))
        }
        var spliced = Data()
        spliced.reserveCapacity(text.count + elements.count * 256)
        spliced.append(text[..<place.lowerBound])
        spliced.append(contentsOf: "\"\(key)\" : [\n".utf8)
        for (index, element) in elements.enumerated() {
            if index > 0 { spliced.append(contentsOf: ",\n".utf8) }
            let lines = try encoder.encode(element).split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
            for (number, line) in lines.enumerated() {
                if number > 0 { spliced.append(UInt8(ascii: "\n")) }
                spliced.append(contentsOf: "    ".utf8)
                spliced.append(contentsOf: line)
            }
        }
        spliced.append(contentsOf: "\n  ]".utf8)
        spliced.append(text[place.upperBound...])
        return spliced
    }
}
