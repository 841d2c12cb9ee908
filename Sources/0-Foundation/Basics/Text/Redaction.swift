import Foundation

/// Passwords kept out of every line Commissary prints or writes. A password reaches a message
/// in three ways: written into an address (`scheme://user:password@host`), as a connection
/// string's `password=…`, or quoted back by a library that read one (libpq repeats the parts of
/// an address it cannot use). The rules for all three are here, so that every message that may
/// hold an address goes through the same ones.
public struct Redaction: Sendable, Hashable {
    /// What stands where a secret was.
    public static let mark = "<redacted>"

    /// Secrets shorter than this are not searched for: they would match ordinary words and
    /// numbers of a message (a port, a year) and so point at where the secret is. They still
    /// go wherever they stand in one of the two written forms.
    public static let shortestSearched = 4

    /// Values known to be secret (the password of an address as its client reads it), longest
    /// first so that a secret holding another goes whole.
    public let secrets: [String]

    public init(secrets: [String] = []) {
        self.secrets = Set(secrets.filter { $0.count >= Self.shortestSearched }).sorted { ($0.count, $0) > ($1.count, $1) }
    }

    /// `text` with every known secret, every address's user-info and every `password=` value
    /// replaced by the mark.
    public func apply(_ text: String) -> String {
        var result = text
        for secret in secrets { result = result.replacingOccurrences(of: secret, with: Self.mark) }
        for form in Self.forms where form.mayMatch(result) {
            result = result.replacingOccurrences(of: form.pattern, with: form.template, options: [.regularExpression])
        }
        return result
    }

    /// The written forms alone, for text that no known secret goes with.
    public static func apply(_ text: String) -> String { Redaction().apply(text) }

    /// An address's user-info runs from `://` to the last `@` of the line, not the first: a
    /// password may hold `@`, `/`, `?` or `#` unencoded, and clients disagree on where it
    /// ends, so the widest reading is the one removed. A `password=` value runs to the end of
    /// its quotes or to the next space.
    ///
    /// Each form goes with what a text must hold for it to match, read byte by byte: most
    /// messages (a run's events, its checks) hold neither, and Foundation's regular expressions
    /// are ICU's, which cost a run 2 ms to set up at the first message. A text with a byte beyond
    /// ASCII always goes to the pattern, whose case-insensitive match knows more spellings of
    /// `password` than ASCII has (a long s folds to s).
    private static let forms: [Form] = [
        Form(pattern: #"([A-Za-z][A-Za-z0-9+.\-]*://)[^\r\n]*@"#, template: "$1\(mark)@",
             mayMatch: { $0.utf8.contains(UInt8(ascii: "@")) && $0.utf8.contains("://".utf8) }),
        Form(pattern: #"((?i)password\s*=\s*)('(?:[^'\\]|\\.)*'?|[^\s'"]*)"#, template: "$1\(mark)",
             mayMatch: { $0.utf8.contains { $0 >= 0x80 } || $0.lowercased().utf8.contains("password".utf8) }),
    ]

    private struct Form: Sendable {
        var pattern: String
        var template: String
        var mayMatch: @Sendable (String) -> Bool
    }
}
