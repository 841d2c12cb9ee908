import HTML
import Testing

/// Character references in text that is no page (a JSON answer's names), decoded by libxml2's
/// table of HTML 4's entities; the expected characters are the HTML 4 specification's.
@Suite struct HTMLEntitiesTests {
    @Test func namedAndNumericReferencesAreCharacters() {
        #expect(HTMLEntities.decoded("caf&eacute;") == "café")
        #expect(HTMLEntities.decoded("Jalape&ntilde;o &#8211; 6&#8221;") == "Jalapeño – 6”")
        #expect(HTMLEntities.decoded("Aquarium&#039;s &rsquo; &#x2019; &#X2019;") == "Aquarium's ’ ’ ’")
        #expect(HTMLEntities.decoded("mac &amp; cheese &lt;b&gt;") == "mac & cheese <b>")
        #expect(HTMLEntities.decoded("a&nbsp;b") == "a\u{A0}b")
    }

    /// What names no character stays as written: a name not in the table, a zero or a code point
    /// past Unicode's, an ampersand alone or without its semicolon.
    @Test func whatNamesNoCharacterStaysAsWritten() {
        for text in ["&nosuch;", "&#0;", "&#1114112;", "&#xZZ;", "fish & chips", "AT&T", "&amp", "&;", "&#;", "& eacute;"] {
            #expect(HTMLEntities.decoded(text) == text, "\(text)")
        }
        #expect(HTMLEntities.decoded("&&amp;") == "&&")
    }
}
