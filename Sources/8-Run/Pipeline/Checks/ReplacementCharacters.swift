import FoodModel
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Text holding U+FFFD, the character a decoder puts where bytes were not in the encoding the
/// document declared: the published name is then not what the source printed, and nothing in
/// the values says so. Found here, it is reported with the partition and the document.
enum ReplacementCharacters {
    /// The first text of the partition's days and foods that holds U+FFFD, if any.
    static func firstText(in dataset: Dataset) -> String? {
        var found: String?
        for day in dataset.serviceDays where found == nil {
            day.forEachMenuItem { item in
                if found == nil, holds(item.name) || holds(item.description) { found = item.name }
            }
        }
        if let found { return found }
        return dataset.foods.values.first { holds($0.name) || holds($0.description) || holds($0.ingredients) }?.name
    }

    /// U+FFFD is EF BF BD in UTF-8; looking for its first byte with `memchr` is cheaper than
    /// comparing characters, or bytes one at a time, over every name of every day a night reads.
    private static func holds(_ text: String?) -> Bool {
        guard var text else { return false }
        return text.withUTF8 { bytes in
            guard var start = bytes.baseAddress else { return false }
            var left = bytes.count
            while left >= 3, let lead = memchr(start, 0xEF, left) {
                let at = UnsafePointer(lead.assumingMemoryBound(to: UInt8.self))
                let offset = at - start
                if offset + 2 < left, at[1] == 0xBF, at[2] == 0xBD { return true }
                start = at + 1
                left -= offset + 1
            }
            return false
        }
    }
}
