/// Why a document could not be had, in one line that names the URL.
public struct FetchError: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Code: String, Hashable, Sendable {
        case notFound, httpStatus, transport, timeout, tooLarge, truncated, tooManyRedirects, invalidURL
    }

    public var code: Code
    public var url: String
    public var message: String

    public init(_ code: Code, url: String, _ message: String) {
        self.code = code
        self.url = url
        self.message = message
    }

    public var description: String { "\(url): \(message)" }
}
