import Basics
import Foundation
import TestSupport

/// UCLA's live feed on 127.0.0.1, as its server lays it out (`menus/`, `recipes/`,
/// `ingredients/`): each night's six menu files, the 1,078 recipe documents saved from the feed
/// and its ingredient documents, 404 for any other id, as UCLA answered. A static file server
/// (UCLA's is WordPress's uploads folder) sends an ETag and answers a matching If-None-Match
/// with 304; so does this one.
final class LiveFeed: Sendable {
    let server: TestHTTPServer
    private let state: State

    /// What the server's threads read and count.
    private final class State: @unchecked Sendable {
        private let lock = NSLock()
        private var servedNight = ""
        private var notFound = 0
        var night: String {
            get { lock.withLock { servedNight } }
            set { lock.withLock { servedNight = newValue } }
        }
        func countNotFound() { lock.withLock { notFound += 1 } }
        var notFoundCount: Int { lock.withLock { notFound } }
    }

    init(folder: URL) throws {
        let ingredients = try JSONSerialization.jsonObject(
            with: Data(contentsOf: folder.appendingPathComponent("ingredients-2025-11-07.json"))) as? [String: Any] ?? [:]
        let ingredientBodies = try ingredients.mapValues { try JSONSerialization.data(withJSONObject: $0) }
        let state = State()
        self.state = state
        server = try TestHTTPServer(lifetime: .seconds(3_600)) { request, _ in
            guard let body = Self.body(of: request.path, folder: folder, ingredients: ingredientBodies, night: state.night)
            else {
                state.countNotFound()
                return Reply(status: 404, keepAlive: true)
            }
            let etag = "\"\(sha256Hex(body).prefix(16))\""
            if request.headers["if-none-match"] == etag {
                return Reply(status: 304, headers: [("ETag", etag)], keepAlive: true)
            }
            return Reply(headers: [("Content-Type", "application/json"), ("ETag", etag)], body: body, keepAlive: true)
        }
    }

    /// The night whose menus are served (`2025-04-07`).
    func serve(night: String) { state.night = night }

    /// Requests answered 404 so far.
    var notFound: Int { state.notFoundCount }

    private static func body(of path: String, folder: URL, ingredients: [String: Data], night: String) -> Data? {
        let parts = path.split(separator: "/").map(String.init)
        guard parts.count == 2, parts[1].hasSuffix(".json") else { return nil }
        let name = String(parts[1].dropLast(".json".count))
        guard !name.isEmpty, name.allSatisfy({ $0.isNumber || $0 == "-" }) else { return nil }
        switch parts[0] {
        case "menus": return try? Data(contentsOf: folder.appendingPathComponent("nights/\(night)/menus/\(parts[1])"))
        case "recipes": return try? Data(contentsOf: folder.appendingPathComponent("recipes/\(parts[1])"))
        case "ingredients": return ingredients[name]
        default: return nil
        }
    }
}
