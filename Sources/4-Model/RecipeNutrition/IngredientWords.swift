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
        let unescaped = name.replacingOccurrences(of: "&amp;", with: "&")
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
    static func singular(_ word: String) -> String {
        guard word.count > 3 else { return word }
        if word.hasSuffix("ies") { return String(word.dropLast(3)) + "y" }
        if word.hasSuffix("oes") { return String(word.dropLast(2)) }
        if ["sses", "xes", "ches", "shes"].contains(where: word.hasSuffix) { return String(word.dropLast(2)) }
        if word.hasSuffix("s"), !["ss", "us", "is"].contains(where: word.hasSuffix) { return String(word.dropLast()) }
        return word
    }
}
