import RunReporting
import Testing

/// What a progress line counts, in words a person reads: "1 document", not "1 documents".
@Suite struct ProgressWordingTests {
    @Test func oneOfSomethingIsSingular() {
        #expect(RunWording.phrase(1, "documents") == "1 document")
        #expect(RunWording.phrase(2, "documents") == "2 documents")
        #expect(RunWording.phrase(1, "documents_reused") == "1 document reused")
        #expect(RunWording.phrase(0, "documents_reused") == "0 documents reused")
        #expect(RunWording.phrase(1, "menu_items") == "1 menu item")
        #expect(RunWording.phrase(1, "not_modified") == "1 not modified")
        // `hours` names the table of opening hours, not a plural of "hour".
        #expect(RunWording.phrase(1, "hours") == "1 hours")
    }
}
