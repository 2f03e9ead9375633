public import Foundation

/// One App Store Server API request as plain values, so the responder stays free of any HTTP
/// framework: the HTTP layer copies what it received into this and sends back a
/// ``ServerAPIResponse``.
public struct ServerAPIRequest: Sendable, Equatable {
    /// `GET`, `POST`, `PUT`, … as received (compared case-insensitively).
    public var method: String
    /// The percent-encoded path, e.g. `/inApps/v1/transactions/2000000000000001`.
    public var path: String
    /// The query items in order; repeated names (`productId=a&productId=b`) stay repeated.
    public var queryItems: [URLQueryItem]
    /// Header fields; names are matched case-insensitively.
    public var headers: [String: String]
    /// The body bytes, empty when there is none.
    public var body: Data

    /// A request; query, headers and body default to none.
    public init(method: String, path: String, queryItems: [URLQueryItem] = [], headers: [String: String] = [:], body: Data = Data()) {
        self.method = method
        self.path = path
        self.queryItems = queryItems
        self.headers = headers
        self.body = body
    }

    /// A request from a URL whose path and query are taken apart, for callers holding a full URL
    /// (an HTTP client transport, a test).
    public init(method: String, url: URL, headers: [String: String] = [:], body: Data = Data()) {
        let components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        self.init(
            method: method, path: components?.percentEncodedPath ?? url.path, queryItems: components?.queryItems ?? [],
            headers: headers, body: body)
    }

    /// The value of a header, looked up case-insensitively.
    public func header(_ name: String) -> String? {
        let wanted = name.lowercased()
        return headers.first { $0.key.lowercased() == wanted }?.value
    }

    /// Every value of a query parameter, in order.
    func queryValues(_ name: String) -> [String] {
        queryItems.filter { $0.name == name }.map { $0.value ?? "" }
    }

    /// The path split into percent-decoded segments, without empty ones.
    var pathSegments: [String] {
        path.split(separator: "/").map { String($0).removingPercentEncoding ?? String($0) }
    }
}
