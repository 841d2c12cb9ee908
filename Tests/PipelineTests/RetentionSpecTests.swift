import Foundation
import Pipeline
import Snapshot
import Testing
import TestSupport

@Suite struct RetentionSpecTests {
    private func read(_ retention: String) throws -> PipelineSpec {
        try DemoSpec.read(adding: retention)
    }

    private func message(_ retention: String) -> String {
        DemoSpec.refusal(adding: retention)
    }

    @Test func readsKeepLastAndKeepMonthly() throws {
        #expect(try read("retention: {keep_last: 7, keep_monthly: 12}").retention
                == RetentionPolicy(keepLast: 7, keepMonthly: 12))
        #expect(try read("retention:\n  keep_monthly: 3").retention == RetentionPolicy(keepLast: 0, keepMonthly: 3))
        #expect(try read("").retention == nil)
    }

    @Test func namesTheKeyAndLineOfABadSetting() {
        let unknown = message("retention:\n  keep_daily: 3")
        #expect(unknown.contains("test.yml:8"))
        #expect(unknown.contains("retention.keep_daily: unknown key; allowed here: keep_last, keep_monthly"))
        #expect(message("retention: {keep_last: -1}").contains("retention.keep_last: must be between 0 and 100000, found -1"))
        #expect(message("retention: {keep_last: two}").contains("retention.keep_last: expected a whole number"))
        #expect(message("retention: {}").contains("retention: give `keep_last`, `keep_monthly`, or both"))
    }
}
