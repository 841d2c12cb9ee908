import Foundation
import Pipeline
import Testing
import TestSupport

/// The names `publish: postgres:` takes go into SQL unquoted where PostgreSQL reads identifiers
/// that way, so they are refused unless they are plain lower-case words. A name with a final
/// newline passed a pattern (`$` matches before it) and the SQL then read `"public\n"` as
/// `public`: readers were granted every table of the database's shared schema. A schema ending in
/// an underscore names its nights like another pipeline's (`dining_`'s `dining___<run>` begins
/// with `dining__`, which `dining`'s retention takes for its own).
@Suite struct PostgresNameSpecTests {
    private func message(_ postgres: String) -> String {
        DemoSpec.refusal(adding: "publish:\n  postgres:\n    url_env: DEMO_DATABASE_URL\n" + postgres)
    }

    @Test(arguments: [
        ("    schema: \"dining\\n\"", "publish.postgres.schema"),
        ("    schema: \"public\\n\"", "publish.postgres.schema"),
        ("    schema: \"dining\\r\\n\"", "publish.postgres.schema"),
        ("    schema: dining_", "publish.postgres.schema"),
        ("    schema: dining\n    across: \"public\\n\"", "publish.postgres.across"),
        ("    schema: dining\n    across: \"campuses\\n\"", "publish.postgres.across"),
        ("    schema: dining\n    readers: [\"anon\\n\"]", "publish.postgres.readers"),
    ])
    func aNameThatIsNotAPlainWordIsRefused(setting: String, key: String) throws {
        let said = message(setting)
        #expect(said.contains(key), "\(said)")
        #expect(said.contains("must be"), "\(said)")
    }

    @Test func plainNamesAreTaken() throws {
        #expect(message("    schema: dining\n    across: campuses\n    readers: [anon, web_reader]") == "no error")
        #expect(message("    schema: _dining2") == "no error")
    }
}
