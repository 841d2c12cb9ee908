import Foundation

/// An ingredient name as the words that decide its match: diacritics and case folded, anything
/// but letters a space, each word made singular, and the words that describe how an ingredient
/// was cut, sized or sold dropped ("Organic Firm Tofu" is "firm tofu", "Garlic Cloves" is
/// "garlic clove"). Synonyms and reference names are read through the same words, so a curated
/// phrase matches however a recipe spells it.
public enum IngredientWords {
    /// Words that say how an ingredient was prepared, sized, certified or sold, not what it is.
    static let descriptors: Set<String> = [
        "fresh", "freshly", "chopped", "diced", "sliced", "minced", "large", "small", "medium", "organic",
        "blanched", "frozen", "fine", "finely", "boneless", "skinless", "skin", "off", "on", "halal", "natural",
        "plain", "pure", "virgin", "to", "taste", "of", "and", "or", "the", "for", "with", "cut", "peeled",
        "shredded", "grated", "crushed", "trimmed", "baby", "jumbo", "lean", "floret", "bone", "in",
    ]

    /// The words of `name`, descriptors dropped unless `keepDescriptors`.
    public static func of(_ name: String, keepDescriptors: Bool = false) -> [String] {
        // Foundation's replacing copies every name through NSString, a third of the time the
        // reference's words took (perf); few names hold an ampersand at all.
        let unescaped = name.utf8.contains(UInt8(ascii: "&")) ? name.replacingOccurrences(of: "&amp;", with: "&") : name
        let words = unescaped.utf8.allSatisfy({ $0 < 0x80 }) ? asciiWords(unescaped) : unescaped
            .folding(options: [.diacriticInsensitive, .caseInsensitive], locale: Locale(identifier: "en_US_POSIX"))
            .lowercased()
            .split { !("a"..."z").contains($0) }.filter { $0.count > 1 }.map(String.init)
        let singulars = words.map(singular)
        return keepDescriptors ? singulars : singulars.filter { !descriptors.contains($0) }
    }

    /// The words of an ASCII name, read as bytes: it has no diacritics to fold and its case
    /// folds to lower case, so Foundation's folding (through NSString) and the standard
    /// library's grapheme breaking, which cost more than the rest of a match, are not needed.
    private static func asciiWords(_ name: String) -> [String] {
        var words: [String] = []
        var word: [UInt8] = []
        for byte in name.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"): word.append(byte)
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): word.append(byte + 32)
            default:
                if word.count > 1 { words.append(String(decoding: word, as: UTF8.self)) }
                word.removeAll(keepingCapacity: true)
            }
        }
        if word.count > 1 { words.append(String(decoding: word, as: UTF8.self)) }
        return words
    }

    /// The phrase a synonym table is keyed by: the words joined by one space.
    public static func phrase(_ name: String) -> String {
        of(name).joined(separator: " ")
    }

    /// English plurals as recipes write them ("tomatoes", "berries", "radishes"); short words and
    /// words ending in -ss, -us or -is are left alone.
    ///
    /// Read as bytes: a reference's words are made once per run, and the suffixes are ASCII, so
    /// a word's last bytes are its last letters (a letter with a mark after it ends in the mark).
    /// An ASCII word has as many letters as bytes, so only another has its letters counted.
    static func singular(_ word: String) -> String {
        guard word.utf8.count > 3, word.utf8.allSatisfy({ $0 < 0x80 }) || word.count > 3 else { return word }
        let ends = { (suffix: StaticString) in word.utf8.reversed().starts(with: suffix.reversedBytes) }
        if ends("ies") { return String(word.dropLast(3)) + "y" }
        if ends("oes") || ends("sses") || ends("xes") || ends("ches") || ends("shes") { return String(word.dropLast(2)) }
        if ends("s"), !ends("ss"), !ends("us"), !ends("is") { return String(word.dropLast()) }
        return word
    }
}

private extension StaticString {
    /// The string's bytes, last first.
    var reversedBytes: ReversedCollection<UnsafeBufferPointer<UInt8>> {
        UnsafeBufferPointer(start: utf8Start, count: utf8CodeUnitCount).reversed()
    }
}
