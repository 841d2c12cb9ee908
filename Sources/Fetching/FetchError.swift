/// Why a document could not be had, in one line that names the URL.
public struct FetchError: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Code: String, Hashable, Sendable {
        case notFound, httpStatus, transport, timeout, tooLarge, truncated, tooManyRedirects, invalidURL
        /// The server's TLS certificate could not be verified; never retried, never bypassed.
        case tlsVerification
        /// The raw store could not be read or written.
        case store
        case cancelled
    }

    public var code: Code
    public var url: String
    public var message: String
    /// The HTTP status the server answered with, when there was one.
    public var status: Int?

    public init(_ code: Code, url: String, _ message: String, status: Int? = nil) {
        self.code = code
        self.url = url
        self.message = message
        self.status = status
    }

    public var description: String { "\(url): \(message)" }
}
