public import Foundation

/// One HTTP request to Apple, as plain values.
///
/// The clients build requests as data rather than talking to an HTTP library directly, so the whole
/// protocol logic (redirects, retries, authentication) can be exercised against an in-memory
/// transport and inspected byte for byte.
public struct AppStoreHTTPRequest: Sendable, Equatable {
    /// The HTTP methods Apple's endpoints use.
    public enum Method: String, Sendable, Equatable {
        case get = "GET"
        case post = "POST"
        case put = "PUT"
        case delete = "DELETE"
    }

    /// The request method.
    public var method: Method
    /// The absolute URL, query included.
    public var url: URL
    /// Header fields by name; names are sent as given.
    public var headers: [String: String]
    /// The body, nil for requests without one.
    public var body: Data?

    /// Creates a request; `headers` and `body` default to none.
    public init(method: Method, url: URL, headers: [String: String] = [:], body: Data? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }
}
