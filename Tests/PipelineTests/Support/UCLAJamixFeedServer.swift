import FoodModel
import Foundation
import Pipeline
import Testing
import TestSupport

/// A server that mirrors the feed's paths for the night set in `night`: ingredient documents
/// from the real ones saved, recipe documents from the 1,078 saved (an id without one is not
/// found, as UCLA's server answered for them).
final class UCLAJamixFeedServer: Sendable {
    let server: TestHTTPServer
    let nightBox: NightBox

    init() throws {
        let ingredients = try JSONSerialization.jsonObject(
            with: Data(contentsOf: UCLAJamixNights.folder.appendingPathComponent("ingredients-2025-11-07.json")))
            as? [String: Any] ?? [:]
        let bodies = try ingredients.mapValues { try JSONSerialization.data(withJSONObject: $0) }
        let box = NightBox()
        let night: @Sendable () -> ServiceDate = { box.get() }
        nightBox = box
        server = try TestHTTPServer(lifetime: .seconds(300), script: { request, _ in
            let parts = request.path.split(separator: "/").map(String.init)
            guard parts.count == 2 else { return Reply(status: 404) }
            let name = String(parts[1].dropLast(".json".count))
            switch parts[0] {
            case "menus":
                guard let date = ServiceDate(name),
                      var body = try? Data(contentsOf: UCLAJamixNights.menuFile(night: night(), date: date))
                else { return Reply(status: 404) }
                if box.broken() == date {
                    // The feed renames the list of a day's meal options: the menus arrive empty.
                    body = Data(String(decoding: body, as: UTF8.self)
                        .replacingOccurrences(of: "\"menuDayMealOptions\"", with: "\"mealOptions\"").utf8)
                }
                return Reply(headers: [("Content-Type", "application/json")], body: body, keepAlive: true)
            case "recipes":
                guard box.servesRecipes() else { return Reply(status: 404, keepAlive: true) }
                guard name.allSatisfy(\.isNumber),
                      let body = try? Data(contentsOf: UCLAJamixNights.folder.appendingPathComponent("recipes/\(name).json"))
                else { return Reply(status: 404, keepAlive: true) }
                return Reply(headers: [("Content-Type", "application/json")], body: body, keepAlive: true)
            case "ingredients":
                guard let body = bodies[name] else { return Reply(status: 404, keepAlive: true) }
                switch box.ingredients() {
                case .served: break
                case .failing: return Reply(status: 500, keepAlive: true)
                case .renamed:
                    // The feed renames its nutrient block: the documents arrive without values.
                    let renamed = String(decoding: body, as: UTF8.self)
                        .replacingOccurrences(of: "\"ingredientNutritiveValues\"", with: "\"nutritiveValues\"")
                    return Reply(headers: [("Content-Type", "application/json")], body: Data(renamed.utf8),
                                 keepAlive: true)
                }
                return Reply(headers: [("Content-Type", "application/json")], body: body, keepAlive: true)
            default:
                return Reply(status: 404, keepAlive: true)
            }
        })
    }

    final class NightBox: @unchecked Sendable {
        private let lock = NSLock()
        private var night = UCLAJamixNights.nights[0]
        private var brokenDate: ServiceDate?
        func get() -> ServiceDate { lock.withLock { night } }
        func set(_ value: ServiceDate) { lock.withLock { night = value } }
        enum Ingredients { case served, failing, renamed }
        private var ingredientDocuments = Ingredients.served
        func ingredients() -> Ingredients { lock.withLock { ingredientDocuments } }
        func serveIngredients(_ value: Ingredients) { lock.withLock { ingredientDocuments = value } }
        private var recipeDocuments = true
        func servesRecipes() -> Bool { lock.withLock { recipeDocuments } }
        func serveRecipes(_ value: Bool) { lock.withLock { recipeDocuments = value } }
        /// The date whose menu the feed serves broken, if any.
        func broken() -> ServiceDate? { lock.withLock { brokenDate } }
        func breakMenu(of date: ServiceDate?) { lock.withLock { brokenDate = date } }
    }

    /// The bundled `Pipelines/nightly-ucla.yml` itself, pointed at this mirror instead of UCLA,
    /// with `extra` appended; its places and standards are the repository's.
    func bundledNightly(in workspace: URL, adding extra: String = "") throws -> PipelineSpec {
        let pipelines = workspace.appendingPathComponent("Pipelines")
        try FileManager.default.createDirectory(at: pipelines, withIntermediateDirectories: true)
        for folder in ["places", "standards", "plans", "terms", "nutrition"] {
            try FileManager.default.createSymbolicLink(at: pipelines.appendingPathComponent(folder),
                                                       withDestinationURL: Paths.pipelines.appendingPathComponent(folder))
        }
        let bundled = try String(contentsOf: Paths.pipelines.appendingPathComponent("nightly-ucla.yml"), encoding: .utf8)
        // Politeness towards UCLA's server (half a second between requests) is no concern here.
        let local = bundled.replacingOccurrences(of: "https://dining.ucla.edu/wp-content/uploads/jamix",
                                                 with: server.url(""))
            .replacingOccurrences(of: "delay_ms: 500", with: "delay_ms: 0")
        #expect(local != bundled)
        let file = pipelines.appendingPathComponent("nightly-ucla.yml")
        try Data((local + extra).utf8).write(to: file)
        return try SpecReader.read(file)
    }
}

/// Where a test runs nights of the bundled pipeline: a temporary workspace, a mirror of the feed
/// of its own, and the bundled nightly pipeline pointed at it; `close()` when done.
struct UCLAJamixNightly {
    let workspace: URL
    let feed: UCLAJamixFeedServer
    let spec: PipelineSpec

    /// `extra` is appended to the pipeline file. What is made before a failure is taken back.
    init(adding extra: String = "") throws {
        workspace = try Paths.temporaryFolder()
        let feed: UCLAJamixFeedServer
        do {
            feed = try UCLAJamixFeedServer()
        } catch {
            try? FileManager.default.removeItem(at: workspace)
            throw error
        }
        self.feed = feed
        do {
            spec = try feed.bundledNightly(in: workspace, adding: extra)
        } catch {
            feed.server.stop()
            try? FileManager.default.removeItem(at: workspace)
            throw error
        }
    }

    /// Stops the mirror and removes the workspace.
    func close() {
        feed.server.stop()
        try? FileManager.default.removeItem(at: workspace)
    }
}
