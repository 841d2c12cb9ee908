import Fetching
import FoodModel
import Foundation
import PostgresTarget
import YAMLConfig
import Nutrition
import RecipeNutrition
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
        try top.allowOnly(["pipeline", "description", "licence", "licence_url", "sources", "checks", "fetch", "dv_standard",
                           "swipes", "retention", "places", "hours", "history", "report_page", "publish",
                           "nutrition_reference"])

        let name = try top.required("pipeline").string()
        guard isPipelineName(name) else {
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
        var spec = PipelineSpec(
            name: name,
            description: try top.optional("description")?.string(),
            file: file,
            licence: try top.optional("licence")?.string() ?? "see the sources' own terms",
            sources: sources,
            checks: try top.optional("checks").map(readChecks) ?? CheckPolicy(),
            fetch: try top.optional("fetch").map(readFetch) ?? FetchSettings(),
            dailyValues: try top.optional("dv_standard").map { try StandardReader.read(named: $0, folder: folder) },
            swipes: try top.optional("swipes").map { try SwipeSettings.read($0, folder: folder) },
            retention: try top.optional("retention").map(readRetention),
            places: try top.optional("places").map { try RestaurantNames.read($0, folder: folder) },
            history: try top.optional("history").map(readHistory),
            licenceURL: try top.optional("licence_url").map(readWebAddress))
        spec.hours = try top.optional("hours").map { try HoursFile.read($0, folder: folder) }
        spec.reportPage = try top.optional("report_page")?.bool() ?? true
        if let publish = try top.optional("publish") { try readPublish(publish, into: &spec) }
        if let reference = try top.optional("nutrition_reference") {
            (spec.estimator, spec.estimatesSkipped) = try readEstimator(reference, folder: folder)
        }
        // Required restaurants may be named as printed: they are checked under the places'
        // names, which is what the snapshot holds once a places file renames them.
        if let places = spec.places {
            spec.checks.requiredRestaurants = spec.checks.requiredRestaurants.map { places.canonicalName(of: $0) ?? $0 }
        }
        return spec
    }

    /// `nutrition_reference: usda-sr24`, or `{name: usda-sr24, required: true}`: the reference,
    /// read from where its script builds it, with its synonyms and overrides found as the
    /// pipeline's other shared files are. A reference file that is missing costs the run its
    /// estimates, not its publication: a server where the script has not run yet still publishes
    /// its menus, and the run says why there are no estimates. A pipeline that requires the
    /// reference stops instead. A file that is there but damaged always stops.
    private static func readEstimator(_ node: YAMLValue, folder: URL) throws
        -> (estimator: DeferredEstimator?, skipped: String?) {
        var nameNode = node
        var required = false
        if case .mapping = node.node {
            let map = try YAMLMapping(node)
            try map.allowOnly(["name", "required"])
            nameNode = try map.required("name")
            required = try map.optional("required")?.bool() ?? false
        }
        let name = try nameNode.string()
        guard NutritionReference.known.contains(name) else {
            throw nameNode.error("unknown nutrition reference \"\(name)\"; known: \(NutritionReference.known.joined(separator: ", "))")
        }
        let file = NutritionReference.location(of: name)
        guard required || FileManager.default.fileExists(atPath: file.path) else {
            return (nil, "no nutrition estimates this run: the nutrition reference \(name) is missing (\(file.path)); "
                    + "run scripts/nutrition-reference, which builds it from Debian's cronometer package")
        }
        return (try DeferredEstimator(reference: name, file: file, tablesBeside: folder), nil)
    }

    /// A source entry: the keys every source has, then the adapter's own, which the adapter
    /// reads and validates; a key no one reads is refused as a typo.
    private static func readSource(_ node: YAMLValue, folder: URL) throws -> SourceSpec {
        let map = try YAMLMapping(node)
        let common: Set<String> = ["name", "adapter", "location", "campus"]
        guard let adapterNode = try map.optional("adapter") else {
            // Without an adapter, a misspelt key is the likelier mistake: it is named first.
            try map.allowOnly(AdapterRegistry.all.reduce(common.union(["dates", "credentials_env", "credentials_file"])) {
                $0.union($1.keys)
            })
            throw try map.required("adapter").error("is required")
        }
        let adapterName = try adapterNode.string()
        guard let adapter = AdapterRegistry.adapter(named: adapterName) else {
            throw adapterNode.error("unknown adapter \"\(adapterName)\"; known adapters: \(AdapterRegistry.names)")
        }
        let allowed = (adapter.needsDates ? common.union(adapter.keys).union(["dates"]) : common.union(adapter.keys))
            .union(["credentials_env", "credentials_file"])
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
        var source = SourceSpec(
            name: try map.required("name").string(),
            adapter: adapter,
            location: location,
            dates: dates,
            settings: try adapter.settings(from: map, location: location, folder: folder),
            credentials: try readCredentials(map, location: location, folder: folder))
        if let campus = try map.optional("campus") {
            source.campus = try campus.string()
            guard source.campus?.isEmpty == false else { throw campus.error("name the campus, or leave `campus` out") }
        }
        return source
    }

    /// `credentials_env: NAME` or `credentials_file: path` (each holding `user:password`), for a
    /// site that asks for them; only where the location is on the web.
    private static func readCredentials(_ map: YAMLMapping, location: Location, folder: URL) throws
        -> CredentialsSource? {
        let environment = try map.optional("credentials_env")
        let file = try map.optional("credentials_file")
        guard let given = environment ?? file else { return nil }
        guard case .web = location else { throw given.error("only a source on the web takes credentials") }
        guard environment == nil || file == nil else {
            throw given.error("give either `credentials_env` or `credentials_file`, not both")
        }
        if let environment {
            let name = try environment.string()
            guard isVariableName(name) else {
                throw environment.error("expected the name of an environment variable, found \"\(name)\"")
            }
            return .environment(name)
        }
        guard let file, case .file(let url) = try SourceLocation.read(file, folder: folder) else {
            throw given.error("expected the path of a file holding user:password")
        }
        return .file(url)
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
        guard to.daysSinceEpoch - from.daysSinceEpoch < DateSelection.maxDays else {
            throw try map.required("to").error("a source covers at most \(DateSelection.maxDays) days; split the range")
        }
        return .range(from: from, to: to)
    }

    private static func readChecks(_ node: YAMLValue) throws -> CheckPolicy {
        let map = try YAMLMapping(node)
        try map.allowOnly(["min_menu_items", "min_recipes", "max_drop_from_previous", "required_restaurants",
                           "max_failed_partitions", "max_day_drop", "min_items_per_meal", "min_labelled_share",
                           "degraded_day"])
        var policy = CheckPolicy()
        if let value = try map.optional("min_menu_items") { policy.minMenuItems = try value.int(in: 0...100_000_000) }
        if let value = try map.optional("min_recipes") { policy.minRecipes = try value.int(in: 0...100_000_000) }
        if let value = try map.optional("max_drop_from_previous") {
            policy.maxDropFromPrevious = try value.double(in: 0...1)
        }
        if let value = try map.optional("max_failed_partitions") {
            policy.maxFailedPartitions = try value.int(in: 0...100_000)
        }
        if let value = try map.optional("max_day_drop") { policy.maxDayDrop = try value.double(in: 0...1) }
        if let value = try map.optional("min_items_per_meal") {
            policy.minItemsPerMeal = try value.int(in: 0...100_000)
        }
        if let value = try map.optional("required_restaurants") {
            policy.requiredRestaurants = try value.sequence().map { try $0.string() }
        }
        if let value = try map.optional("min_labelled_share") { policy.minLabelledShare = try readLabelledShare(value) }
        if let value = try map.optional("degraded_day") { policy.degradedDay = try readDegradedDay(value) }
        return policy
    }

    /// `degraded_day: warn` (every sign) or `{placeholder_names: refuse, missing_meals: warn, zeroed_labels: refuse}`.
    private static func readDegradedDay(_ node: YAMLValue) throws -> DegradedDayPolicy {
        func response(_ node: YAMLValue) throws -> DegradedDayPolicy.Response {
            let text = try node.string()
            guard let response = DegradedDayPolicy.Response(rawValue: text) else {
                throw node.error("expected refuse or warn, found \"\(text)\"")
            }
            return response
        }
        guard case .mapping = node.node else { return DegradedDayPolicy(all: try response(node)) }
        let map = try YAMLMapping(node)
        try map.allowOnly(["placeholder_names", "missing_meals", "zeroed_labels"])
        var policy = DegradedDayPolicy()
        if let value = try map.optional("placeholder_names") { policy.placeholderNames = try response(value) }
        if let value = try map.optional("missing_meals") { policy.missingMeals = try response(value) }
        if let value = try map.optional("zeroed_labels") { policy.zeroedLabels = try response(value) }
        return policy
    }

    /// `min_labelled_share: 0.8` (warn below 80%) or `{warn: 0.8, block: 0.3}`.
    private static func readLabelledShare(_ node: YAMLValue) throws -> LabelledShareLimits {
        guard case .mapping = node.node else { return LabelledShareLimits(warn: try node.double(in: 0...1)) }
        let map = try YAMLMapping(node)
        try map.allowOnly(["warn", "block"])
        let limits = LabelledShareLimits(warn: try map.optional("warn")?.double(in: 0...1),
                                         block: try map.optional("block")?.double(in: 0...1))
        guard limits.warn != nil || limits.block != nil else { throw node.error("give `warn`, `block` or both") }
        return limits
    }

    /// An http(s) address people can open: the licence's page.
    private static func readWebAddress(_ node: YAMLValue) throws -> String {
        let text = try node.string()
        guard let url = URL(string: text), ["http", "https"].contains(url.scheme ?? ""), url.host != nil else {
            throw node.error("expected an http:// or https:// address")
        }
        return text
    }

    /// `history: {keep: all}`, `{since: 2025-09-20}` or `{last_days: 120}`.
    private static func readHistory(_ node: YAMLValue) throws -> HistoryPolicy {
        let map = try YAMLMapping(node)
        try map.allowOnly(["keep", "since", "last_days"])
        guard map.keys.count == 1 else { throw node.error("give one of `keep: all`, `since: YYYY-MM-DD`, `last_days: N`") }
        if let keep = try map.optional("keep") {
            guard try keep.string() == "all" else { throw keep.error("expected `all`") }
            return .all
        }
        if let since = try map.optional("since") { return .since(try since.date()) }
        return .lastDays(try map.required("last_days").int(in: 1...DateSelection.maxDays))
    }

    /// `publish: {changes: {max_rows: N}, feeds: BOOL, postgres: …}`.
    private static func readPublish(_ node: YAMLValue, into spec: inout PipelineSpec) throws {
        let map = try YAMLMapping(node)
        try map.allowOnly(["changes", "feeds", "postgres"])
        spec.feeds = try map.optional("feeds")?.bool() ?? false
        if let changesNode = try map.optional("changes") {
            let changes = try YAMLMapping(changesNode)
            try changes.allowOnly(["max_rows"])
            spec.changeRowLimit = try changes.required("max_rows").int(in: 1...100_000_000)
        }
        spec.postgres = try map.optional("postgres").map(readPostgres)
    }

    /// `postgres: {url_env: NAME, schema: NAME, readers: [ROLE, …], row_level_security: BOOL,
    /// across: NAME, apply_changes: BOOL, lock_wait_seconds: INT}`:
    /// the server's address is read from the environment variable at run time, never from the file.
    private static func readPostgres(_ postgresNode: YAMLValue) throws -> PostgresTarget {
        let postgres = try YAMLMapping(postgresNode)
        try postgres.allowOnly(["url_env", "schema", "readers", "row_level_security", "across", "apply_changes",
                                "lock_wait_seconds"])
        let variableNode = try postgres.required("url_env")
        let variable = try variableNode.string()
        guard isVariableName(variable) else {
            // Not echoed: what was written here may be an address with its password.
            throw variableNode.error("must name an environment variable (letters, digits, underscores); "
                                     + "the address itself never goes in the pipeline file")
        }
        let schemaNode = try postgres.optional("schema")
        let schema = try schemaNode?.string() ?? "commissary"
        guard PostgresTarget.isValidSchema(schema) else {
            throw (schemaNode ?? postgresNode).error(
                "must be lower-case letters, digits and single underscores, at most 40, not ending in an underscore, "
                + "found \(String(reflecting: schema))")
        }
        guard !PostgresTarget.isSharedSchema(schema) else {
            throw (schemaNode ?? postgresNode).error(
                "must be a schema of Commissary's own, not \"\(schema)\", which the database and its applications share: "
                + "each night renames the served schema aside and retention drops old ones")
        }
        let readers = try postgres.optional("readers")?.sequence().map { node -> String in
            let role = try node.string()
            guard PostgresTarget.isValidRole(role) else {
                throw node.error("must be a role name of lower-case letters, digits and underscores, at most 63, found "
                                 + String(reflecting: role))
            }
            return role
        } ?? []
        let rowLevelSecurity = try postgres.optional("row_level_security")?.bool() ?? false
        let acrossNode = try postgres.optional("across")
        let across = try acrossNode?.string()
        if let across, let acrossNode {
            guard PostgresTarget.isValidSchema(across), !PostgresTarget.isSharedSchema(across), across != schema,
                  across != schema + "_changes" else {
                throw acrossNode.error("must be a schema of its own for the views across pipelines (lower-case letters, "
                                       + "digits and single underscores, at most 40, not ending in an underscore), not "
                                       + "\(String(reflecting: across)), nor the pipeline's schema or its change feed's")
            }
        }
        return PostgresTarget(addressVariable: variable, schema: schema, readers: readers, rowLevelSecurity: rowLevelSecurity,
                              across: across, applyChanges: try postgres.optional("apply_changes")?.bool() ?? true,
                              lockWaitSeconds: try postgres.optional("lock_wait_seconds")?.int(in: 1...3_600)
                                  ?? PostgresTarget.defaultLockWaitSeconds)
    }

    private static func readRetention(_ node: YAMLValue) throws -> RetentionPolicy {
        let map = try YAMLMapping(node)
        try map.allowOnly(["keep_last", "keep_monthly"])
        guard !map.keys.isEmpty else { throw node.error("give `keep_last`, `keep_monthly`, or both") }
        var policy = RetentionPolicy()
        if let value = try map.optional("keep_last") { policy.keepLast = try value.int(in: 0...100_000) }
        if let value = try map.optional("keep_monthly") { policy.keepMonthly = try value.int(in: 0...100_000) }
        return policy
    }

    /// Every number has a range: a value outside it is refused here, with its line, rather than
    /// trapping or hanging in the run (a timeout of `1e300`, a delay of years).
    private static func readFetch(_ node: YAMLValue) throws -> FetchSettings {
        let map = try YAMLMapping(node)
        try map.allowOnly(["user_agent", "timeout_seconds", "retries", "per_host_concurrency",
                           "delay_ms", "max_response_bytes", "requests_per_second", "max_run_minutes",
                           "revalidate", "missing_documents"])
        var settings = FetchSettings()
        if let value = try map.optional("user_agent") {
            let agent = try value.string()
            guard agent.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7F }), agent.count <= 256 else {
                throw value.error("must be one line of at most 256 printable characters (it is sent as a header)")
            }
            settings.userAgent = agent
        }
        if let value = try map.optional("timeout_seconds") { settings.timeoutSeconds = try value.double(in: 0.1...3_600) }
        if let value = try map.optional("retries") { settings.retries = try value.int(in: 0...10) }
        if let value = try map.optional("per_host_concurrency") {
            settings.perHostConcurrency = try value.int(in: 1...16)
        }
        if let value = try map.optional("delay_ms") { settings.delayMilliseconds = try value.int(in: 0...60_000) }
        if let value = try map.optional("max_response_bytes") {
            settings.maxResponseBytes = try value.int(in: 1...1_000_000_000)
        }
        if let value = try map.optional("requests_per_second") {
            settings.requestsPerSecond = try value.double(in: 0.001...1_000)
        }
        // From under a second (0.01) to a day: a nightly run that needs longer is stuck.
        if let value = try map.optional("max_run_minutes") { settings.maxRunMinutes = try value.double(in: 0.01...1_440) }
        if let value = try map.optional("revalidate") { settings.foodDocuments = try readRevalidate(value) }
        if let value = try map.optional("missing_documents") { settings.missingDocuments = try readMissingDocuments(value) }
        return settings
    }

    /// `revalidate: {menus: always, food_documents: 7d}`: a food document's period is `always`,
    /// `never` or whole days (`7d`, at most a year); menus are asked every run and say so.
    private static func readRevalidate(_ node: YAMLValue) throws -> RevalidationPeriod {
        let map = try YAMLMapping(node)
        try map.allowOnly(["menus", "food_documents"])
        if let menus = try map.optional("menus"), try menus.string() != "always" {
            throw menus.error("menus are asked every run (`always`): that is how a run learns what changed")
        }
        guard let value = try map.optional("food_documents") else { return .days(7) }
        switch try value.string() {
        case "always": return .always
        case "never": return .never
        default: return .days(try days(value))
        }
    }

    /// `missing_documents: {retry_after: 1d, max: 14d}`, whole days, `max` no less than `retry_after`.
    private static func readMissingDocuments(_ node: YAMLValue) throws -> MissingBackOff {
        let map = try YAMLMapping(node)
        try map.allowOnly(["retry_after", "max"])
        var backOff = MissingBackOff()
        if let value = try map.optional("retry_after") { backOff.retryAfterDays = try days(value) }
        if let value = try map.optional("max") {
            backOff.maxDays = try days(value)
            guard backOff.maxDays >= backOff.retryAfterDays else {
                throw value.error("must be at least retry_after (\(backOff.retryAfterDays)d)")
            }
        }
        return backOff
    }

    /// A period of whole days written `Nd`, from 1 to 366.
    private static func days(_ node: YAMLValue) throws -> Int {
        let text = try node.string()
        guard text.hasSuffix("d"), let days = Int(text.dropLast()), (1...366).contains(days) else {
            throw node.error("expected whole days from 1d to 366d, found \"\(text)\"")
        }
        return days
    }

    /// Lower-case letters, digits and dashes, not a dash first. Swift's own regular expressions:
    /// Foundation's are ICU's, which cost every run's start 2 ms to set up for a name or two.
    private static func isPipelineName(_ text: String) -> Bool {
        text.wholeMatch(of: #/[a-z0-9][a-z0-9-]*/#) != nil
    }

    /// An environment variable's name: ASCII letters, digits and underscores, not a digit first.
    private static func isVariableName(_ text: String) -> Bool {
        text.wholeMatch(of: #/[A-Za-z_][A-Za-z0-9_]*/#) != nil
    }
}
