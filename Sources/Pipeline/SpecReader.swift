import FoodModel
import Foundation
import YAMLConfig
import Nutrition
import Snapshot
import SourceAdapters

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

    private static func read(_ top: YAMLMapping, file: URL) throws -> PipelineSpec {
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

    /// A source entry: the keys every source has, then the adapter's own, which the adapter
    /// reads and validates; a key no one reads is refused as a typo.
    private static func readSource(_ node: YAMLValue, folder: URL) throws -> SourceSpec {
        let map = try YAMLMapping(node)
        let common: Set<String> = ["name", "adapter", "location"]
        guard let adapterNode = try map.optional("adapter") else {
            // Without an adapter, a misspelt key is the likelier mistake: it is named first.
            try map.allowOnly(AdapterRegistry.all.reduce(common.union(["dates"])) { $0.union($1.keys) })
            throw try map.required("adapter").error("is required")
        }
        let adapterName = try adapterNode.string()
        guard let adapter = AdapterRegistry.adapter(named: adapterName) else {
            throw adapterNode.error("unknown adapter \"\(adapterName)\"; known adapters: \(AdapterRegistry.names)")
        }
        let allowed = adapter.needsDates ? common.union(adapter.keys).union(["dates"]) : common.union(adapter.keys)
        for key in map.keys where !allowed.contains(key) {
            let readers = AdapterRegistry.all.filter { $0.keys.contains(key) }.map(\.name)
            if !readers.isEmpty, let value = try map.optional(key) {
                throw value.error("only a \(readers.joined(separator: " or ")) source reads `\(key)`")
            }
        }
        try map.allowOnly(allowed)
        let locationNode = try map.required("location")
        let location = try SourceLocation.read(locationNode, folder: folder)
        if let problem = adapter.problem(reading: location) { throw locationNode.error(problem) }
        let dates = try map.optional("dates").map(readDates)
        if adapter.needsDates, dates == nil {
            throw map.node.error("a menu source needs `dates` (from/to, or days_ahead)")
        }
        return SourceSpec(
            name: try map.required("name").string(),
            adapter: adapter,
            location: location,
            dates: dates,
            settings: try adapter.settings(from: map, location: location, folder: folder))
    }

    private static func readDates(_ node: YAMLValue) throws -> DateSelection {
        let map = try YAMLMapping(node)
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

    private static func readChecks(_ node: YAMLValue) throws -> CheckPolicy {
        let map = try YAMLMapping(node)
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

    private static func readRetention(_ node: YAMLValue) throws -> RetentionPolicy {
        let map = try YAMLMapping(node)
        try map.allowOnly(["keep_last", "keep_monthly"])
        guard !map.keys.isEmpty else { throw node.error("give `keep_last`, `keep_monthly`, or both") }
        var policy = RetentionPolicy()
        if let value = try map.optional("keep_last") { policy.keepLast = try value.nonNegativeInt() }
        if let value = try map.optional("keep_monthly") { policy.keepMonthly = try value.nonNegativeInt() }
        return policy
    }

    private static func readFetch(_ node: YAMLValue) throws -> FetchSettings {
        let map = try YAMLMapping(node)
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
