import Foundation
import Snapshot

/// A restaurant's file name in a feed folder: lower-case ASCII letters, digits and hyphens, from
/// its name and campus ("Café Bon Appétit", "St. Olaf" → `cafe-bon-appetit-st-olaf`), the same
/// every night for the same restaurant.
enum Slug {
    /// One slug per restaurant id. Two restaurants whose names fold to one slug are told apart
    /// by `-2`, `-3`… in the order of their names and campuses (the order `FeedQueries` gives),
    /// so the result depends only on the snapshot's restaurants, never on reading order.
    static func assign(_ restaurants: [FeedRestaurant]) -> [Int64: String] {
        var taken: Set<String> = []
        var slugs: [Int64: String] = [:]
        let natural = restaurants.map { (restaurant: $0, slug: make(name: $0.name, campus: $0.campus)) }
        let naturalSlugs = Set(natural.map(\.slug))
        for (restaurant, slug) in natural {
            var candidate = slug
            var number = 2
            // A suffixed slug must not take another restaurant's own slug either.
            while taken.contains(candidate) || (candidate != slug && naturalSlugs.contains(candidate)) {
                candidate = "\(slug)-\(number)"
                number += 1
            }
            taken.insert(candidate)
            slugs[restaurant.id] = candidate
        }
        return slugs
    }

    /// The slug of a name and campus alone: accents folded, every run of other characters one hyphen.
    static func make(name: String, campus: String?) -> String {
        let text = ([name] + (campus.map { [$0] } ?? [])).joined(separator: " ")
        let folded = text.folding(options: [.diacriticInsensitive, .caseInsensitive, .widthInsensitive],
                                  locale: Locale(identifier: "en_US_POSIX"))
        var slug = ""
        for scalar in folded.lowercased().unicodeScalars {
            if scalar.isASCII, CharacterSet.alphanumerics.contains(scalar) {
                slug.unicodeScalars.append(scalar)
            } else if !slug.isEmpty, !slug.hasSuffix("-") {
                slug.append("-")
            }
        }
        slug = String(slug.prefix(80))
        while slug.hasSuffix("-") { slug.removeLast() }
        return slug.isEmpty ? "restaurant" : slug
    }
}
