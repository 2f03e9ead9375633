public import Foundation

/// Calls the App Store Server API with a fresh ES256 token per request.
///
/// Apple's documented temporary errors (4040002, 4040004, 4040006, 5000001), 5xx answers without
/// an error body, 429 (honouring `Retry-After`) and network failures are retried under the
/// ``Retrier``; everything else surfaces at once as a typed ``AppStoreServerAPIError``. The client
/// knows endpoints only as ``ServerAPIEndpoint`` values and decodes into caller-chosen types, so it
/// does not depend on the wire models.
public struct AppStoreServerAPIClient: Sendable {
    /// Who is calling and where to.
    public let configuration: AppStoreServerAPIConfiguration
    private let transport: any AppStoreHTTPTransport
    private let retry: Retrier
    private let now: @Sendable () -> Date

    /// Creates a client. `now` stamps each token (`iat`) and resolves HTTP-date `Retry-After`
    /// values; it is injected so tests can pin it.
    public init(
        configuration: AppStoreServerAPIConfiguration,
        transport: any AppStoreHTTPTransport,
        retry: Retrier = Retrier(),
        now: @escaping @Sendable () -> Date
    ) {
        self.configuration = configuration
        self.transport = transport
        self.retry = retry
        self.now = now
    }

    /// Sends `endpoint` and decodes the answer as `Response`.
    public func send<Response: Decodable>(
        _ endpoint: ServerAPIEndpoint, as type: Response.Type = Response.self
    ) async throws(AppStoreServerAPIError) -> Response {
        let body = try await sendReturningData(endpoint)
        do {
            return try JSONDecoder().decode(Response.self, from: body)
        } catch {
            throw .decoding("\(Response.self) from \(endpoint.path): \(error)")
        }
    }

    /// Sends an endpoint whose success answer carries nothing of interest (consumption information,
    /// app account token).
    public func sendWithoutBody(_ endpoint: ServerAPIEndpoint) async throws(AppStoreServerAPIError) {
        _ = try await sendReturningData(endpoint)
    }

    /// Sends `endpoint` and returns the success body untouched, for callers that store Apple's
    /// bytes as evidence or decode them themselves.
    public func sendReturningData(_ endpoint: ServerAPIEndpoint) async throws(AppStoreServerAPIError) -> Data {
        let url = try url(for: endpoint)
        let outcome = await retry.run { _ -> Retrier.Attempt<Data, AppStoreServerAPIError> in
            let request: AppStoreHTTPRequest
            do throws(AppStoreServerAPIError) {
                request = try self.request(for: endpoint, url: url)
            } catch {
                return .failure(error, .permanent)
            }
            let response: AppStoreHTTPResponse
            do {
                response = try await transport.send(request)
            } catch {
                return .failure(.transport(String(describing: error)), .transient)
            }
            switch ServerAPIDecision(response: response, now: now()) {
            case .success(let body): return .success(body)
            case .failure(let error, let disposition): return .failure(error, disposition)
            }
        }
        switch outcome {
        case .success(let body): return body
        case .giveUp(let error): throw error
        case .exhausted(let last, _): throw .retriesExhausted(last: last)
        }
    }

    /// The signed request for one attempt.
    private func request(for endpoint: ServerAPIEndpoint, url: URL) throws(AppStoreServerAPIError) -> AppStoreHTTPRequest {
        let token: String
        do {
            token = try AppStoreServerAPIToken.make(configuration: configuration, now: now())
        } catch {
            throw .signing(String(describing: error))
        }
        var headers = ["Authorization": "Bearer " + token, "Accept": "application/json", "User-Agent": "perennial"]
        if let body = endpoint.body { headers["Content-Type"] = body.contentType }
        return AppStoreHTTPRequest(method: endpoint.method, url: url, headers: headers, body: endpoint.body?.json)
    }

    /// The endpoint's absolute URL under the configured base; query values are percent-encoded
    /// strictly (a `+` in a revision token must not arrive as a space).
    private func url(for endpoint: ServerAPIEndpoint) throws(AppStoreServerAPIError) -> URL {
        guard var components = URLComponents(url: configuration.baseURL, resolvingAgainstBaseURL: false) else {
            throw .invalidRequest("base URL \(configuration.baseURL) is not a valid URL")
        }
        var basePath = components.percentEncodedPath
        while basePath.hasSuffix("/") { basePath.removeLast() }
        components.percentEncodedPath = basePath + endpoint.path
        if !endpoint.queryItems.isEmpty {
            let unreserved = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")
            components.percentEncodedQuery = endpoint.queryItems.map { item in
                let name = item.name.addingPercentEncoding(withAllowedCharacters: unreserved) ?? item.name
                let value = (item.value ?? "").addingPercentEncoding(withAllowedCharacters: unreserved) ?? ""
                return name + "=" + value
            }.joined(separator: "&")
        }
        guard let url = components.url else {
            throw .invalidRequest("\(endpoint.path) does not form a URL under \(configuration.baseURL)")
        }
        return url
    }
}

/// Walking every page of the paginated endpoints (transaction history, refund history,
/// notification history).
extension AppStoreServerAPIClient {
    /// The cursor fields every paginated answer carries.
    private struct PageCursor: Decodable {
        let hasMore: Bool?
        let revision: String?
        let paginationToken: String?
    }

    /// Fetches the endpoint's first page and follows `hasMore` with the returned cursor until the
    /// last page; returns each page's body in order. A non-paginated endpoint yields one page.
    ///
    /// A cursor Apple already returned ends the walk with ``AppStoreServerAPIError/decoding(_:)``
    /// instead of looping forever.
    public func allPages(_ endpoint: ServerAPIEndpoint) async throws(AppStoreServerAPIError) -> [Data] {
        var pages: [Data] = []
        var seenCursors: Set<String> = []
        var current = endpoint
        while true {
            let body = try await sendReturningData(current)
            pages.append(body)
            guard let pagination = endpoint.pagination else { return pages }
            let cursor: PageCursor
            do {
                cursor = try JSONDecoder().decode(PageCursor.self, from: body)
            } catch {
                throw .decoding("page \(pages.count) of \(endpoint.path) has no readable cursor: \(error)")
            }
            guard cursor.hasMore == true else { return pages }
            let next = pagination == .revision ? cursor.revision : cursor.paginationToken
            guard let next, !next.isEmpty else {
                throw .decoding("page \(pages.count) of \(endpoint.path) has hasMore but no \(pagination.parameter)")
            }
            guard seenCursors.insert(next).inserted else {
                throw .decoding("page \(pages.count) of \(endpoint.path) repeats \(pagination.parameter) \(next)")
            }
            current = endpoint.page(after: next)
        }
    }

    /// Like ``allPages(_:)``, decoding each page as `Page`.
    public func allPages<Page: Decodable>(
        _ endpoint: ServerAPIEndpoint, as type: Page.Type
    ) async throws(AppStoreServerAPIError) -> [Page] {
        var decoded: [Page] = []
        for (index, body) in try await allPages(endpoint).enumerated() {
            do {
                decoded.append(try JSONDecoder().decode(Page.self, from: body))
            } catch {
                throw .decoding("page \(index + 1) of \(endpoint.path) as \(Page.self): \(error)")
            }
        }
        return decoded
    }
}
