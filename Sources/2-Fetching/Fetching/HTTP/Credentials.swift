/// A user name and password for a site that asks for them. They are kept out of URLs, so that
/// no record, snapshot, manifest or error line can carry them, and never printed: a description
/// shows the user only.
public struct Credentials: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible {
    public var user: String
    public var password: String

    public init(user: String, password: String) {
        self.user = user
        self.password = password
    }

    /// `user:password`, the form of an environment variable or a credentials file's first line.
    public init?(userColonPassword text: String) {
        let line = text.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
        guard let colon = line.firstIndex(of: ":"), colon != line.startIndex else { return nil }
        self.init(user: String(line[..<colon]), password: String(line[line.index(after: colon)...]))
    }

    public var description: String { "\(user):<redacted>" }
    public var debugDescription: String { description }

    /// The form curl's `CURLOPT_USERPWD` takes.
    var userColonPassword: String { "\(user):\(password)" }
}
