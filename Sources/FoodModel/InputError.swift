import Basics

/// A bad input: one line that says what is wrong and where (file, URL, row), for the user.
///
/// Adapters and decoders throw this instead of crashing or silently skipping, so that a
/// nightly run can report the page that changed and go on with the others.
public struct InputError: CommissaryFailure, Hashable, Sendable {
    /// Where: a URL, a file path, or a file path with a row or key.
    public var location: String
    public var message: String

    public init(_ message: String, at location: String) {
        self.message = message
        self.location = location
    }

    public var code: FailureCode { .badInput }
    public var place: String? { location }
}
