import Basics

/// Why a document could not be had, in one line that names the URL.
public struct FetchError: CommissaryFailure, Hashable, Sendable {
    public enum Code: String, Hashable, Sendable {
        case notFound, httpStatus, transport, timeout, tooLarge, truncated, tooManyRedirects, invalidURL
        /// The server's TLS certificate could not be verified; never retried, never bypassed.
        case tlsVerification
        /// The raw store could not be read or written.
        case store
        /// The run's deadline passed while the document was still waiting (`FetchDeadline`).
        case deadline
        case cancelled
    }

    /// What went wrong, for retry decisions and tests.
    public var kind: Code
    public var url: String
    public var message: String
    /// The HTTP status the server answered with, when there was one.
    public var status: Int?

    public init(_ code: Code, url: String, _ message: String, status: Int? = nil) {
        self.kind = code
        self.url = url
        self.message = message
        self.status = status
    }

    public var place: String? { url }

    /// A store that cannot be written, or a network that cannot be reached or answers too
    /// slowly (a night that ran out of time included), is the machine's problem; everything
    /// else is the document's.
    public var code: FailureCode {
        switch kind {
        case .store, .transport, .timeout, .deadline: .environment
        default: .badInput
        }
    }
}
