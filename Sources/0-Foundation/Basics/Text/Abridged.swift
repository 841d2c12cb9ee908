/// The first few items of a list and how many more there are, so that a line naming sixty
/// failed days stays one line a person reads; the whole list is kept where `rest` points (a
/// manifest, a table).
public func abridged(_ items: [String], first limit: Int = 5, separator: String = ", ",
                     rest: (Int) -> String = { "and \($0) more" }) -> String {
    let listed = items.prefix(limit).joined(separator: separator)
    return items.count > limit ? listed + separator + rest(items.count - limit) : listed
}
