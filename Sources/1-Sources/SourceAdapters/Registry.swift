import Basics

/// Every source adapter Commissary has, by the name pipelines and `commissary parse` use.
public enum AdapterRegistry {
    /// One line per adapter.
    public static let all: [any SourceAdapter] = [
        UCLAMenuSiteAdapter(),
        FoodProAdapter(),
        UCLADatasetAdapter(),
        MealDBDumpAdapter(),
        MealDBAPIAdapter(),
        UCLAJamixAdapter(),
        NutrisliceAdapter(),
        DineOnCampusAdapter(),
        NetNutritionLabelAdapter(),
        BonAppetitAdapter(),
    ]

    public static func adapter(named name: String) -> (any SourceAdapter)? {
        all.first { $0.name == name }
    }

    /// The page format `parse` reads for `--adapter name` (an adapter's name, or an old `parse`
    /// name such as `ucla-recipe`) and `--page`: the adapter's first format when no page is given.
    /// A name it does not know is an `unknownName` failure at the option that gave it.
    public static func pageFormat(adapter name: String, page: String?) throws -> (any SourceAdapter, PageFormat) {
        if let adapter = adapter(named: name) {
            guard let page else { return (adapter, adapter.pageFormats[0]) }
            guard let format = adapter.pageFormats.first(where: { $0.name == page }) else {
                let known = adapter.pageFormats.map(\.name).joined(separator: ", ")
                throw Failure(.unknownName, "the \(name) adapter has no page format \"\(page)\"; its formats: \(known)",
                              at: "--page")
            }
            return (adapter, format)
        }
        for adapter in all {
            if let format = adapter.pageFormats.first(where: { $0.aliases.contains(name) }) {
                guard page == nil || page == format.name else {
                    throw Failure(.unknownName,
                                  "\(name) is the \(adapter.name) adapter's \(format.name) format; drop --page \(page ?? "")",
                                  at: "--page")
                }
                return (adapter, format)
            }
        }
        throw Failure(.unknownName, "unknown adapter \"\(name)\"; known adapters: \(names)", at: "--adapter")
    }

    /// The adapters' names, as an error lists them.
    public static var names: String { all.map(\.name).joined(separator: ", ") }

    /// Every name `parse --adapter` accepts, once: each adapter's, then the old names (two of
    /// which, `foodpro` and `ucla-dataset`, are adapters' names too).
    public static var parseNames: [String] {
        var seen: Set<String> = []
        return (all.map(\.name) + all.flatMap { $0.pageFormats.flatMap(\.aliases) }).filter { seen.insert($0).inserted }
    }
}
