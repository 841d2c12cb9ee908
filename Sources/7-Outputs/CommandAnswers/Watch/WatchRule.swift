import FoodModel
import Snapshot

/// What a watch file asks for: rules, any of which an item of the days ahead may match, and how
/// many days ahead to look (today included; nil for every day the snapshot holds).
public struct WatchList: Hashable, Sendable {
    public var rules: [WatchRule]
    public var days: Int?

    public init(rules: [WatchRule], days: Int? = nil) {
        self.rules = rules
        self.days = days
    }
}

/// One favourite: every condition it names must hold of an item (an item name, terms its food
/// carries, terms it must not carry, a restaurant, a campus).
public struct WatchRule: Hashable, Sendable {
    /// How alerts name the rule: the file's `label`, or the rule in words.
    public var label: String
    public var item: NamePattern?
    /// Terms of the one vocabulary the item's food must carry, every one.
    public var terms: [String]
    /// Terms it must not carry: `not: peanuts` leaves out an item whose codes mean peanuts, and
    /// one whose codes say it may contain peanuts, since a person avoiding them avoids both (an
    /// item with no allergen codes declares none, which is not the same as holding none).
    public var excluded: [String]
    public var restaurant: NamePattern?
    public var campus: String?

    public init(label: String? = nil, item: NamePattern? = nil, terms: [String] = [], excluded: [String] = [],
                restaurant: NamePattern? = nil, campus: String? = nil) {
        self.item = item
        self.terms = terms
        self.excluded = excluded
        self.restaurant = restaurant
        self.campus = campus
        self.label = label ?? Self.words(item: item, terms: terms, excluded: excluded, restaurant: restaurant, campus: campus)
    }

    /// Whether `item` is one this rule watches for: its printed name or its food's name matches.
    public func matches(_ item: UpcomingItem) -> Bool {
        if let pattern = self.item, !pattern.matches(item.item) && !pattern.matches(item.food) { return false }
        if let restaurant, !restaurant.matches(item.restaurant) { return false }
        if let campus, campus.lowercased() != item.campus?.lowercased() { return false }
        let carried = Set(item.terms)
        return carried.isSuperset(of: terms) && carried.union(item.mayContain).isDisjoint(with: excluded)
    }

    private static func words(item: NamePattern?, terms: [String], excluded: [String], restaurant: NamePattern?,
                              campus: String?) -> String {
        var parts: [String] = []
        if let item { parts.append("item \(item.text)") }
        if !terms.isEmpty { parts.append(terms.joined(separator: ", ")) }
        if !excluded.isEmpty { parts.append("not " + excluded.joined(separator: ", ")) }
        if let restaurant { parts.append("at \(restaurant.text)") }
        if let campus { parts.append("on \(campus)") }
        return parts.joined(separator: " ")
    }
}

/// A name to look for, case-insensitively: a glob when it holds `*` or `?` (`*tikka*`,
/// `Pizza ?`), matched against the whole name; otherwise text found anywhere in the name.
public struct NamePattern: Hashable, Sendable {
    public var text: String

    public init(_ text: String) {
        self.text = text
    }

    public var isGlob: Bool { text.contains("*") || text.contains("?") }

    public func matches(_ name: String) -> Bool {
        let name = name.lowercased()
        let pattern = text.lowercased()
        return isGlob ? Self.glob(Array(pattern), Array(name)) : name.contains(pattern)
    }

    /// `*` any run of characters, `?` one character: a table of which prefixes of the pattern
    /// match which prefixes of the name, so no name makes it backtrack.
    private static func glob(_ pattern: [Character], _ name: [Character]) -> Bool {
        var matched = [true] + Array(repeating: false, count: name.count)
        for symbol in pattern {
            var next = Array(repeating: false, count: name.count + 1)
            if symbol == "*" {
                var seen = false
                for index in 0...name.count {
                    seen = seen || matched[index]
                    next[index] = seen
                }
            } else {
                for index in 0..<name.count where matched[index] && (symbol == "?" || symbol == name[index]) {
                    next[index + 1] = true
                }
            }
            matched = next
        }
        return matched[name.count]
    }
}
