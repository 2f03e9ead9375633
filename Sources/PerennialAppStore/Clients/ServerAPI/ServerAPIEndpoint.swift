public import Foundation

/// One App Store Server API request, described as data: method, path, query and body.
///
/// Every endpoint of reference §3.6 has a static constructor (see `ServerAPIEndpoint+Endpoints`),
/// so call sites read like Apple's documentation and tests can assert each endpoint's exact shape.
/// Paginated endpoints carry their ``ServerAPIPagination`` so the client can walk all pages.
public struct ServerAPIEndpoint: Sendable, Equatable {
    /// The HTTP method.
    public var method: AppStoreHTTPRequest.Method
    /// The path below the base URL, already percent-encoded (`/inApps/v1/transactions/123`).
    public var path: String
    /// Query parameters in order; repeated names are allowed (`status=1&status=2`).
    public var queryItems: [URLQueryItem]
    /// The JSON body, if the endpoint takes one.
    public var body: ServerAPIRequestBody?
    /// How to ask for the next page, for paginated endpoints.
    public var pagination: ServerAPIPagination?

    /// Describes an endpoint; prefer the static constructors.
    public init(
        method: AppStoreHTTPRequest.Method,
        path: String,
        queryItems: [URLQueryItem] = [],
        body: ServerAPIRequestBody? = nil,
        pagination: ServerAPIPagination? = nil
    ) {
        self.method = method
        self.path = path
        self.queryItems = queryItems
        self.body = body
        self.pagination = pagination
    }

    /// The same request asking for the page after `cursor`: the cursor parameter is replaced and
    /// every other parameter kept, as Apple requires for follow-up pages.
    public func page(after cursor: String) -> ServerAPIEndpoint {
        guard let pagination else { return self }
        var next = self
        next.queryItems.removeAll { $0.name == pagination.parameter }
        next.queryItems.append(URLQueryItem(name: pagination.parameter, value: cursor))
        return next
    }

    /// Builds a path from literal segments and caller-supplied identifiers, percent-encoding the
    /// identifiers so an odd product ID cannot change the path's shape.
    static func encodedPath(_ segments: String...) -> String {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove("/")
        return segments.map { "/" + ($0.addingPercentEncoding(withAllowedCharacters: allowed) ?? $0) }.joined()
    }
}
