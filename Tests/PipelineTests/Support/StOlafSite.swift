import Foundation
import Synchronization
import TestSupport

/// St. Olaf's menus answer for 2016-11-22 served on 127.0.0.1 with whatever body a test sets,
/// and the pipeline file that reads it, written into a workspace: for tests that run the binary
/// on the real answer and then on one they changed.
final class StOlafSite: Sendable {
    /// The body served, shared by the site and its server's script.
    private final class Answer: Sendable {
        let body: Mutex<Data>
        init(_ body: Data) { self.body = Mutex(body) }
    }

    private let answer: Answer
    let server: TestHTTPServer
    /// The pipeline file, in `workspace`.
    let spec: URL

    init(answer: Data, workspace: URL) throws {
        let served = Answer(answer)
        server = try TestHTTPServer { request, _ in
            guard request.path == CampusesPipelineTests.menusPath + "2016-11-22" else { return Reply(status: 404, keepAlive: true) }
            return Reply(headers: [("Content-Type", "application/json")], body: served.body.withLock { $0 }, keepAlive: true)
        }
        self.answer = served
        spec = workspace.appendingPathComponent("stolaf.yml")
        try Data(CampusesPipelineTests.stolafPipeline(server).utf8).write(to: spec)
    }

    /// Serves `body` from the next request on.
    func serve(_ body: Data) {
        answer.body.withLock { $0 = body }
    }
}
