@testable import commissary
import Testing

/// What a progress line counts, in words a person reads: "1 document", not "1 documents".
@Suite struct ProgressWordingTests {
    @Test func oneOfSomethingIsSingular() {
        #expect(TerminalProgress.phrase(1, "documents") == "1 document")
        #expect(TerminalProgress.phrase(2, "documents") == "2 documents")
        #expect(TerminalProgress.phrase(1, "documents_reused") == "1 document reused")
        #expect(TerminalProgress.phrase(0, "documents_reused") == "0 documents reused")
        #expect(TerminalProgress.phrase(1, "menu_items") == "1 menu item")
        #expect(TerminalProgress.phrase(1, "not_modified") == "1 not modified")
        // `hours` names the table of opening hours, not a plural of "hour".
        #expect(TerminalProgress.phrase(1, "hours") == "1 hours")
    }
}
