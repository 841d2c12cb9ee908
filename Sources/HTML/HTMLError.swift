import Basics

/// Why a document could not be parsed or queried, with the URL or file it came from.
///
/// `HTML` depends on libxml2 only, so it carries its own error; site adapters turn it into the
/// model's `InputError` with the same location.
public struct HTMLError: CommissaryFailure, Hashable, Sendable {
    /// The URL or file path of the document.
    public var location: String
    public var message: String

    public init(_ message: String, at location: String) {
        self.message = message
        self.location = location
    }

    public var code: FailureCode { .badInput }
    public var place: String? { location }
}
