import Basics
import SourceAdapters
import SourceReading
import Testing

/// The pure rules behind the secrets and ids the reliability suite tries on the real binary:
/// how a location is read, how a document's id becomes a path segment, what is redacted.
@Suite struct AddressTests {
    @Test func aLocationIsReadAsAURLAndRefusedWithAnyAt() throws {
        #expect(try SourceLocation.webAddress("https://dining.ucla.edu/wp-content/uploads/jamix/")
                == "https://dining.ucla.edu/wp-content/uploads/jamix")
        #expect(try SourceLocation.webAddress("HTTPS://Host.example/x") == "https://Host.example/x")
        #expect(try SourceLocation.webAddress("http://h.example/menus/a%40b") == "http://h.example/menus/a%40b")
        #expect(try SourceLocation.webAddress("SampleData/menu") == nil)
        for spelled in ["http://u:p/ss@h.example", "http://u:p?ss@h.example", "http://u:p#ss@h.example",
                        "http://u:p%2Fss@h.example", "http://u@h.example", "http://h.example/x@y"] {
            #expect(throws: Failure.self, "\(spelled)") { try SourceLocation.webAddress(spelled) }
            do {
                _ = try SourceLocation.webAddress(spelled)
            } catch {
                #expect(error.code == .credentialsInAddress && !error.message.contains("p/ss") && !error.message.contains("h.example"))
            }
        }
        for broken in ["http://", "http:// h.example/x", "http://h.example/x\r\nHost: y", "gopher://h.example/"] {
            #expect(throws: Failure.self, "\(broken.debugDescription)") { try SourceLocation.webAddress(broken) }
        }
    }

    @Test func anIdIsCheckedAgainstItsSourcesShapeAndEncodedAsOneSegment() {
        #expect(LinkedId.wholeNumber.accepts("1883"))
        for id in ["", "../../x", "1?x=1#y", "1883\r\n", "12/../1", "%31", "１２", "1e3", "-1", String(repeating: "9", count: 19)] {
            #expect(!LinkedId.wholeNumber.accepts(id), "\(id.debugDescription)")
        }
        #expect(LinkedId.lettersAndDigits.accepts("5d23f9374198d409c3061864"))
        #expect(!LinkedId.lettersAndDigits.accepts("5d23f937/../x"))
        #expect(LinkedId.pathSegment("1883") == "1883")
        #expect(LinkedId.pathSegment("a/b?c#d%e f") == "a%2Fb%3Fc%23d%25e%20f")
        #expect(LinkedId.pathSegment("..") == "%2E%2E")
        #expect(LinkedId.wholeNumber.refusal(of: "1\r\n2", field: "recipeId")
                == #"recipeId "1\r\n2" is not one of the source's ids (a whole number): left out, never requested"#)
    }

    @Test func redactionRemovesUserInfoPasswordSettingsAndKnownSecrets() {
        #expect(Redaction.apply(#"invalid URI: "postgresql://u:p@ss@host/db" and more"#)
                == #"invalid URI: "postgresql://<redacted>@host/db" and more"#)
        #expect(Redaction.apply("found ftp://u:p/ss@h/x") == "found ftp://<redacted>@h/x")
        #expect(Redaction.apply("host=h password='a b\\'c' user=u") == "host=h password=<redacted> user=u")
        #expect(Redaction.apply("host=h PASSWORD = s3cret dbname=d") == "host=h PASSWORD = <redacted> dbname=d")
        #expect(Redaction.apply("http://h/x failed: 404") == "http://h/x failed: 404")
        // Every spelling the patterns match, whatever the quick look before them says.
        #expect(Redaction.apply("host=h PassWord=s3cret") == "host=h PassWord=<redacted>")
        #expect(Redaction.apply("host=h pa\u{17F}\u{17F}word=s3cret") == "host=h pa\u{17F}\u{17F}word=<redacted>")
        #expect(Redaction.apply("Caf\u{e9} https://u:s3cret@h/x") == "Caf\u{e9} https://<redacted>@h/x")
        #expect(Redaction.apply("mail me@host, see https://h/x") == "mail me@host, see https://h/x")
        #expect(Redaction.apply("12 checks passed") == "12 checks passed")
        let known = Redaction(secrets: ["hunter22", "abc"])
        #expect(known.apply("port \"hunter22\" abc") == "port \"<redacted>\" abc")
    }
}
