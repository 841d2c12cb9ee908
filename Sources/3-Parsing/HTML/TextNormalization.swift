extension String {
    /// Collapses every run of whitespace (including the no-break spaces that menu sites put
    /// between amount and unit, "1&nbsp;each") into one space and trims both ends, so that the
    /// indentation of the markup never leaks into values.
    ///
    /// It runs on the text of every node read, so ASCII text (nearly all of it) is collapsed in
    /// one pass over its bytes; anything else goes through `Character.isWhitespace`, which is
    /// what the ASCII set below is for ASCII.
    public var whitespaceNormalized: String {
        let asciiOnly = utf8.withContiguousStorageIfAvailable { bytes in
            bytes.allSatisfy { $0 < 0x80 } ? Self.collapsingASCIIWhitespace(bytes) : nil
        }
        if let collapsed = asciiOnly ?? nil { return collapsed }
        return split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }

    /// Tab, line feed, vertical tab, form feed, carriage return and space.
    private static func collapsingASCIIWhitespace(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        String(unsafeUninitializedCapacity: bytes.count) { output in
            var count = 0
            var pendingSpace = false
            for byte in bytes {
                if byte == 0x20 || (0x09...0x0D).contains(byte) {
                    pendingSpace = count > 0
                } else {
                    if pendingSpace {
                        output[count] = 0x20
                        count += 1
                        pendingSpace = false
                    }
                    output[count] = byte
                    count += 1
                }
            }
            return count
        }
    }
}
