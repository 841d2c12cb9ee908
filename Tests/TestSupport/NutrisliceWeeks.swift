import Foundation

/// The three real weeks of UW–Madison's Four Lakes Market (`../shared/data/nutrislice-2025`:
/// breakfast, lunch and dinner, the week of Sunday 2025-08-17) as the Nutrislice weeks API
/// answered them, for tests that read them as they are or edited, under any school's path.
public enum NutrisliceWeeks {
    public static let menuTypes = ["breakfast", "lunch", "dinner"]
    /// The seven days each answer lists.
    public static let dates = (17...23).map { "2025-08-\($0)" }

    public static func file(_ menuType: String) -> String {
        "nutrislice-2025/four-lakes-market_\(menuType)_2025-08-17.json"
    }

    /// The weeks API's path of a school's week of one menu type, as the adapter asks for it.
    public static func path(school: String, menuType: String) -> String {
        "/menu/api/weeks/school/\(school)/menu-type/\(menuType)/2025/08/17/"
    }

    /// One menu type's answer, as a JSON object to edit.
    public static func answer(_ menuType: String) throws -> [String: Any] {
        guard let answer = try JSONSerialization.jsonObject(with: SharedData.load(file(menuType))) as? [String: Any]
        else { throw EditFailed(what: "\(file(menuType)) is not a JSON object") }
        return answer
    }

    /// Changes, in `answer`, the `food` of every row on `date` whose food has the id `food`.
    public static func editFood(_ food: Int, on date: String, in answer: inout [String: Any],
                                _ change: (inout [String: Any]) -> Void) throws {
        guard var days = answer["days"] as? [[String: Any]],
              let day = days.firstIndex(where: { $0["date"] as? String == date }),
              var rows = days[day]["menu_items"] as? [[String: Any]]
        else { throw EditFailed(what: "no day \(date) with menu items") }
        var found = false
        for index in rows.indices {
            guard var fields = rows[index]["food"] as? [String: Any], fields["id"] as? Int == food else { continue }
            change(&fields)
            rows[index]["food"] = fields
            found = true
        }
        guard found else { throw EditFailed(what: "no food \(food) on \(date)") }
        days[day]["menu_items"] = rows
        answer["days"] = days
    }

    /// Changes the label (`rounded_nutrition_info`) of a food object.
    public static func editLabel(of food: inout [String: Any], _ change: (inout [String: Any]) -> Void) {
        var label = food["rounded_nutrition_info"] as? [String: Any] ?? [:]
        change(&label)
        food["rounded_nutrition_info"] = label
    }

    public static func data(_ answer: [String: Any]) throws -> Data {
        try JSONSerialization.data(withJSONObject: answer)
    }

    /// A server on 127.0.0.1 answering JSON by path, 404 for anything else; what it answers can
    /// change between runs.
    public final class Server: Sendable {
        private let answers: Answers
        private let http: TestHTTPServer

        public init() throws {
            let answers = Answers()
            self.answers = answers
            http = try TestHTTPServer(lifetime: .seconds(600)) { request, _ in
                guard let body = answers.body(at: request.path) else { return Reply(status: 404, keepAlive: true) }
                return Reply(headers: [("Content-Type", "application/json")], body: body, keepAlive: true)
            }
        }

        /// Answers `body` at `path` from now on.
        public func serve(_ body: Data, at path: String) {
            answers.set(body, at: path)
        }

        /// The three real weeks under `school`'s paths, as they are.
        public func serveRealWeeks(school: String) throws {
            for menuType in menuTypes {
                serve(try SharedData.load(file(menuType)), at: path(school: school, menuType: menuType))
            }
        }

        /// The API root, for a pipeline's `location`.
        public var root: String { http.url("") }

        public func stop() { http.stop() }
    }

    private final class Answers: @unchecked Sendable {
        private let lock = NSLock()
        private var bodies: [String: Data] = [:]

        func body(at path: String) -> Data? { lock.withLock { bodies[path] } }
        func set(_ body: Data, at path: String) { lock.withLock { bodies[path] = body } }
    }

    public struct EditFailed: Error, CustomStringConvertible {
        public var what: String

        public init(what: String) {
            self.what = what
        }

        public var description: String { "cannot edit the Nutrislice week: \(what)" }
    }
}
