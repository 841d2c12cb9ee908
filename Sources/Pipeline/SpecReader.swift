import FoodModel
import Foundation
import Nutrition
import Snapshot
import Yams

/// Reads pipeline files. YAML is composed into nodes (not decoded with Codable) so that every
/// error can name the file, the key and the line, and so that an unknown key (a typo such as
/// `recipe_page`) is an error rather than a silently ignored setting.
public enum SpecReader {
    public static func read(_ file: URL) throws -> PipelineSpec {
        try read(YAMLFile.mapping(of: file, what: "pipeline file", emptyHint: hint), file: file)
    }

    public static func parse(_ text: String, file: URL) throws -> PipelineSpec {
        try read(YAMLFile.mapping(of: text, file: file, what: "pipeline file", emptyHint: hint), file: file)
    }

    private static let hint = "; a pipeline needs at least `pipeline` and `sources`"

    private static func read(_ top: Mapping, file: URL) throws -> PipelineSpec {
        let folder = file.deletingLastPathComponent()
        try top.allowOnly(["pipeline", "description", "licence", "sources", "checks", "fetch", "dv_standard",
                           "swipes", "retention"])

        let name = try top.required("pipeline").string()
        guard name.range(of: "^[a-z0-9][a-z0-9-]*$", options: .regularExpression) != nil else {
            throw try top.required("pipeline").error(
                "must be lower-case letters, digits and dashes (it names snapshot files), found \"\(name)\"")
        }
        let sourcesNode = try top.required("sources")
        let sourceNodes = try sourcesNode.sequence()
        guard !sourceNodes.isEmpty else { throw sourcesNode.error("needs at least one source") }
        var sources: [SourceSpec] = []
        for node in sourceNodes {
            let source = try readSource(node, folder: folder)
            if sources.contains(where: { $0.name == source.name }) {
                throw node.error("two sources are named \"\(source.name)\"")
            }
            sources.append(source)
        }
        return PipelineSpec(
            name: name,
            description: try top.optional("description")?.string(),
            file: file,
            licence: try top.optional("licence")?.string() ?? "see the sources' own terms",
            sources: sources,
            checks: try top.optional("checks").map(readChecks) ?? CheckPolicy(),
            fetch: try top.optional("fetch").map(readFetch) ?? FetchSettings(),
            dailyValues: try top.optional("dv_standard").map { try StandardReader.read(named: $0, folder: folder) },
            swipes: try top.optional("swipes").map { try SwipeSettings.read($0, folder: folder) },
            retention: try top.optional("retention").map(readRetention))
    }

    private static func readSource(_ node: Value, folder: URL) throws -> SourceSpec {
        let map = try Mapping(node)
        // A foodpro source's own keys are allowed only there, so that elsewhere they are typos.
        let isFoodPro = try map.optional("adapter")?.string() == SourceSpec.Adapter.foodpro.rawValue
        let foodProKeys: Set<String> = isFoodPro ? ["layout", "menu_page", "item_page"] : []
        try map.allowOnly(foodProKeys.union(["name", "adapter", "location", "dates", "recipe_pages", "hours",
                                             "categories", "letters"]))
        let adapterNode = try map.required("adapter")
        let adapterName = try adapterNode.string()
        guard let adapter = SourceSpec.Adapter(rawValue: adapterName) else {
            let known = SourceSpec.Adapter.allCases.map(\.rawValue).joined(separator: ", ")
            throw adapterNode.error("unknown adapter \"\(adapterName)\"; known adapters: \(known)")
        }
        let location = try location(map.required("location"), folder: folder)
        switch (adapter, location) {
        case (.uclaMenuSite, .file):
            throw try map.required("location").error("the menu site needs a folder or an http(s) URL, not a file")
        case (.mealdbDump, .directory), (.mealdbDump, .web):
            throw try map.required("location").error("a MealDB dump is a file (a JSON array or {\"meals\": [...]})")
        case (.uclaDataset, .file), (.uclaDataset, .web):
            throw try map.required("location").error("the UCLA dataset is a folder of YYYY-MM-DD.json files")
        case (.mealdbAPI, .directory), (.mealdbAPI, .file):
            throw try map.required("location").error("the MealDB API needs an http(s) URL such as https://www.themealdb.com")
        case (.foodpro, .file):
            throw try map.required("location").error("a FoodPro site needs a folder or an http(s) URL, not a file")
        default:
            break
        }
        if adapter != .mealdbAPI, let letters = try map.optional("letters") {
            throw letters.error("only a mealdb-api source walks letters")
        }
        let foodPro = try readFoodProPages(map, adapter: adapter)
        let dates = try map.optional("dates").map(readDates)
        if adapter == .uclaMenuSite || adapter == .foodpro, dates == nil {
            throw map.node.error("a menu source needs `dates` (from/to, or days_ahead)")
        }
        return SourceSpec(
            name: try map.required("name").string(),
            adapter: adapter,
            location: location,
            dates: dates,
            recipePages: try map.optional("recipe_pages")?.bool() ?? (foodPro?.hasReadableItemPages ?? true),
            hours: try map.optional("hours")?.bool() ?? (adapter == .uclaMenuSite),
            categories: try map.optional("categories").map { try self.location($0, folder: folder) },
            letters: try map.optional("letters").map(readLetters),
            foodPro: foodPro)
    }

    /// `layout` (required) and the optional `menu_page` / `item_page` templates of a `foodpro`
    /// source; `recipe_pages: true` is refused where the layout's item pages cannot be read.
    private static func readFoodProPages(_ map: Mapping, adapter: SourceSpec.Adapter) throws -> FoodProPages? {
        guard adapter == .foodpro else { return nil }
        let layoutNode = try map.required("layout")
        let name = try layoutNode.string()
        guard let layout = FoodProPages.Layout(rawValue: name) else {
            let known = FoodProPages.Layout.allCases.map(\.rawValue).joined(separator: ", ")
            throw layoutNode.error("unknown FoodPro layout \"\(name)\"; known layouts: \(known)")
        }
        let pages = FoodProPages(layout: layout, menuPage: try map.optional("menu_page")?.string(),
                                 itemPage: try map.optional("item_page")?.string())
        if !pages.hasReadableItemPages, let wanted = try map.optional("recipe_pages"), try wanted.bool() {
            throw wanted.error("the \(name) layout's item pages (recipedetail.asp) have no known format yet: set recipe_pages: false")
        }
        return pages
    }

    /// `letters: abc019`: a subset of the catalogue's first characters, for a partial backfill.
    private static func readLetters(_ node: Value) throws -> [Character] {
        let letters = Array(try node.string().lowercased())
        for letter in letters where !MealDBAPIHarvester.allLetters.contains(letter) {
            throw node.error("\"\(letter)\" is not one of a–z or 0–9")
        }
        guard Set(letters).count == letters.count else { throw node.error("lists a letter twice") }
        return letters
    }

    private static func location(_ node: Value, folder: URL) throws -> Location {
        let text = try node.string()
        if text.hasPrefix("https://") || text.hasPrefix("http://") {
            return .web(text.hasSuffix("/") ? String(text.dropLast()) : text)
        }
        guard !text.contains("://") else {
            throw node.error("only http(s) URLs and local paths are supported, found \"\(text)\"")
        }
        let url = text.hasPrefix("/") ? URL(fileURLWithPath: text)
            : folder.appendingPathComponent(text).standardizedFileURL
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw node.error("no such file or folder: \(url.path)")
        }
        return isDirectory.boolValue ? .directory(url) : .file(url)
    }

    private static func readDates(_ node: Value) throws -> DateSelection {
        let map = try Mapping(node)
        try map.allowOnly(["from", "to", "days_ahead"])
        if let ahead = try map.optional("days_ahead") {
            guard try map.optional("from") == nil, try map.optional("to") == nil else {
                throw node.error("give either `days_ahead` or `from`/`to`, not both")
            }
            let days = try ahead.int()
            guard (0...60).contains(days) else { throw ahead.error("must be between 0 and 60, found \(days)") }
            return .upcoming(daysAhead: days)
        }
        let from = try map.required("from").date()
        let to = try map.optional("to")?.date() ?? from
        guard from <= to else { throw try map.required("to").error("is before `from` (\(from))") }
        return .range(from: from, to: to)
    }

    private static func readChecks(_ node: Value) throws -> CheckPolicy {
        let map = try Mapping(node)
        try map.allowOnly(["min_menu_items", "min_recipes", "max_drop_from_previous", "required_restaurants",
                           "max_failed_partitions"])
        var policy = CheckPolicy()
        if let value = try map.optional("min_menu_items") { policy.minMenuItems = try value.int() }
        if let value = try map.optional("min_recipes") { policy.minRecipes = try value.int() }
        if let value = try map.optional("max_drop_from_previous") {
            let fraction = try value.double()
            guard (0...1).contains(fraction) else { throw value.error("must be a fraction between 0 and 1") }
            policy.maxDropFromPrevious = fraction
        }
        if let value = try map.optional("max_failed_partitions") {
            let allowed = try value.int()
            guard allowed >= 0 else { throw value.error("must be 0 or more, found \(allowed)") }
            policy.maxFailedPartitions = allowed
        }
        if let value = try map.optional("required_restaurants") {
            policy.requiredRestaurants = try value.sequence().map { try $0.string() }
        }
        return policy
    }

    private static func readRetention(_ node: Value) throws -> RetentionPolicy {
        let map = try Mapping(node)
        try map.allowOnly(["keep_last", "keep_monthly"])
        guard !map.keys.isEmpty else { throw node.error("give `keep_last`, `keep_monthly`, or both") }
        var policy = RetentionPolicy()
        if let value = try map.optional("keep_last") { policy.keepLast = try value.nonNegativeInt() }
        if let value = try map.optional("keep_monthly") { policy.keepMonthly = try value.nonNegativeInt() }
        return policy
    }

    private static func readFetch(_ node: Value) throws -> FetchSettings {
        let map = try Mapping(node)
        try map.allowOnly(["user_agent", "timeout_seconds", "retries", "per_host_concurrency",
                           "delay_ms", "max_response_bytes", "requests_per_second"])
        var settings = FetchSettings()
        if let value = try map.optional("user_agent") { settings.userAgent = try value.string() }
        if let value = try map.optional("timeout_seconds") { settings.timeoutSeconds = try value.positiveDouble() }
        if let value = try map.optional("retries") { settings.retries = try value.int() }
        if let value = try map.optional("per_host_concurrency") {
            settings.perHostConcurrency = max(1, try value.int())
        }
        if let value = try map.optional("delay_ms") { settings.delayMilliseconds = try value.int() }
        if let value = try map.optional("max_response_bytes") { settings.maxResponseBytes = try value.int() }
        if let value = try map.optional("requests_per_second") {
            settings.requestsPerSecond = try value.positiveDouble()
        }
        return settings
    }
}

/// A YAML node with the key path that led to it, so that errors can say where they are.
struct Value {
    let node: Node
    let key: String
    let file: URL

    func error(_ message: String) -> PipelineFileError {
        PipelineFileError(file: file.path, line: node.mark?.line, column: node.mark?.column,
                          key: key, message: message)
    }

    func string() throws -> String {
        guard case .scalar(let scalar) = node else { throw error("expected text, found \(kind)") }
        let text = scalar.string.trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty else { throw error("must not be empty") }
        return text
    }

    func int() throws -> Int {
        guard let value = Int(try string()) else { throw error("expected a whole number, found \"\(try string())\"") }
        return value
    }

    func nonNegativeInt() throws -> Int {
        let value = try int()
        guard value >= 0 else { throw error("must be 0 or more, found \(value)") }
        return value
    }

    func double() throws -> Double {
        guard let value = Double(try string()) else { throw error("expected a number, found \"\(try string())\"") }
        return value
    }

    func positiveDouble() throws -> Double {
        let value = try double()
        guard value > 0 else { throw error("must be greater than 0") }
        return value
    }

    func bool() throws -> Bool {
        switch try string().lowercased() {
        case "true", "yes", "on": return true
        case "false", "no", "off": return false
        case let other: throw error("expected true or false, found \"\(other)\"")
        }
    }

    func date() throws -> ServiceDate {
        let text = try string()
        guard let date = ServiceDate(text) else {
            throw error("expected a date as YYYY-MM-DD, found \"\(text)\"")
        }
        return date
    }

    func sequence() throws -> [Value] {
        guard case .sequence(let items) = node else { throw error("expected a list, found \(kind)") }
        return items.enumerated().map { Value(node: $1, key: "\(key)[\($0)]", file: file) }
    }

    private var kind: String {
        switch node {
        case .scalar(let scalar): "\"\(scalar.string)\""
        case .mapping: "a mapping"
        case .sequence: "a list"
        case .alias: "an alias"
        }
    }
}

/// A YAML mapping whose keys are checked against the ones a section allows.
struct Mapping {
    let node: Value
    private let pairs: [(key: String, value: Node, mark: Mark?)]

    init(_ node: Node, key: String, file: URL) throws {
        try self.init(Value(node: node, key: key, file: file))
    }

    init(_ value: Value) throws {
        guard case .mapping(let mapping) = value.node else {
            throw value.error("expected a mapping of keys to values")
        }
        node = value
        pairs = mapping.map { ($0.key.string ?? "", $0.value, $0.key.mark) }
    }

    /// The keys present, in file order.
    var keys: [String] { pairs.map(\.key) }

    func allowOnly(_ keys: Set<String>) throws {
        for pair in pairs where !keys.contains(pair.key) {
            throw PipelineFileError(
                file: node.file.path, line: pair.mark?.line, column: pair.mark?.column,
                key: path(pair.key),
                message: "unknown key; allowed here: \(keys.sorted().joined(separator: ", "))")
        }
    }

    func optional(_ key: String) throws -> Value? {
        pairs.first { $0.key == key }.map { Value(node: $0.value, key: path(key), file: node.file) }
    }

    func required(_ key: String) throws -> Value {
        guard let value = try optional(key) else {
            throw PipelineFileError(file: node.file.path, line: node.node.mark?.line,
                                    column: node.node.mark?.column, key: path(key),
                                    message: "is required")
        }
        return value
    }

    private func path(_ child: String) -> String {
        node.key.isEmpty ? child : "\(node.key).\(child)"
    }
}
