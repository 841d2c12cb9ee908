/// The recipe id and portion in a link to `.../Recipes/{id}/{portion}`.
struct RecipeLink: Hashable {
    var recipeId: String
    var portion: String?

    /// Reads any absolute or relative href; nil when it does not point at a recipe page (the
    /// nav's "Menu Filter" link shares the `recipelink` class). Everything after the id is the
    /// portion, so `1/2` survives as written. A link with a dot segment (`/Recipes/../../etc/x`,
    /// also percent-encoded) is not a recipe page: the id names a food and the path is fetched,
    /// so neither may climb out of `/Recipes/`.
    init?(href: String) {
        guard let marker = href.range(of: "/Recipes/", options: .caseInsensitive) else { return nil }
        let path = href[marker.upperBound...].prefix { $0 != "?" && $0 != "#" }
        let segments = path.split(separator: "/").map(String.init)
        let isDotSegment = { (segment: String) in
            [".", ".."].contains(segment.replacingOccurrences(of: "%2e", with: ".", options: .caseInsensitive))
        }
        guard let id = segments.first, !id.isEmpty, !segments.contains(where: isDotSegment) else { return nil }
        recipeId = id
        portion = segments.count > 1 ? segments.dropFirst().joined(separator: "/") : nil
    }
}
