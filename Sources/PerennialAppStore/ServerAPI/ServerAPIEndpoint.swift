public import Foundation

/// One App Store Server API request, described as data: method, path, query and body.
///
/// Every endpoint subscription servers use has a static constructor (the extension below),
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

/// How a paginated App Store Server API endpoint hands out its next page.
///
/// History and refund history answer `hasMore` with a `revision` to send back as a query
/// parameter; notification history answers `hasMore` with a `paginationToken`.
public enum ServerAPIPagination: String, Sendable, Equatable {
    /// `hasMore` + `revision`, sent back as `?revision=`.
    case revision
    /// `hasMore` + `paginationToken`, sent back as `?paginationToken=`.
    case paginationToken

    /// The query parameter (and response field) carrying the cursor.
    var parameter: String { rawValue }
}

/// A request body for the App Store Server API: JSON, or the PNG of Upload Image.
///
/// Endpoints take the body as ready bytes so this client stays independent of the request models:
/// callers encode their model (whose `Encodable` conformance owns Apple's field names and its
/// millisecond dates) or pass JSON they already hold.
public struct ServerAPIRequestBody: Sendable, Equatable {
    /// The bytes sent.
    public let json: Data
    /// Their `Content-Type`.
    public let contentType: String

    /// Wraps JSON bytes as they are.
    public init(json: Data) {
        self.json = json
        self.contentType = "application/json"
    }

    /// A PNG image, as Upload Image takes it.
    public init(png: Data) {
        self.json = png
        self.contentType = "image/png"
    }

    /// Encodes a request model with a plain `JSONEncoder` (sorted keys, so requests are stable).
    public static func encoding(_ value: some Encodable) throws(AppStoreServerAPIError) -> Self {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        do {
            return Self(json: try encoder.encode(value))
        } catch {
            throw .invalidRequest("body of type \(type(of: value)) could not be encoded: \(error)")
        }
    }
}

/// The endpoints of the App Store Server API that subscription servers use.
extension ServerAPIEndpoint {
    /// Get All Subscription Statuses: `GET /inApps/v1/subscriptions/{transactionId}`, optionally
    /// filtered to subscription statuses (1 active … 5 revoked).
    public static func subscriptionStatuses(transactionID: String, status: [Int]? = nil) -> Self {
        Self(
            method: .get,
            path: encodedPath("inApps", "v1", "subscriptions", transactionID),
            queryItems: (status ?? []).map { URLQueryItem(name: "status", value: String($0)) }
        )
    }

    /// Get Transaction History (v2): `GET /inApps/v2/history/{transactionId}`, paginated by revision.
    /// The filters are the wire model's, so the query parameters are spelled in one place.
    public static func transactionHistory(
        transactionID: String, revision: String? = nil, query: TransactionHistoryRequest = TransactionHistoryRequest()
    ) -> Self {
        Self(
            method: .get,
            path: encodedPath("inApps", "v2", "history", transactionID),
            queryItems: query.queryItems(revision: revision),
            pagination: .revision
        )
    }

    /// Get Transaction History V1, deprecated but still served: `GET /inApps/v1/history/{transactionId}`,
    /// paginated by revision, with the same filters as v2; it leaves out finished consumables.
    public static func transactionHistoryV1(
        transactionID: String, revision: String? = nil, query: TransactionHistoryRequest = TransactionHistoryRequest()
    ) -> Self {
        Self(
            method: .get,
            path: encodedPath("inApps", "v1", "history", transactionID),
            queryItems: query.queryItems(revision: revision),
            pagination: .revision
        )
    }

    /// Get Transaction Info: `GET /inApps/v1/transactions/{transactionId}`.
    public static func transactionInfo(transactionID: String) -> Self {
        Self(method: .get, path: encodedPath("inApps", "v1", "transactions", transactionID))
    }

    /// Get Refund History (v2): `GET /inApps/v2/refund/lookup/{transactionId}`, paginated by revision.
    public static func refundHistory(transactionID: String, revision: String? = nil) -> Self {
        Self(
            method: .get,
            path: encodedPath("inApps", "v2", "refund", "lookup", transactionID),
            queryItems: revision.map { [URLQueryItem(name: "revision", value: $0)] } ?? [],
            pagination: .revision
        )
    }

    /// Look Up Order ID: `GET /inApps/v1/lookup/{orderId}`.
    public static func orderLookup(orderID: String) -> Self {
        Self(method: .get, path: encodedPath("inApps", "v1", "lookup", orderID))
    }

    /// Get Notification History: `POST /inApps/v1/notifications/history`, paginated by token.
    public static func notificationHistory(paginationToken: String? = nil, body: ServerAPIRequestBody) -> Self {
        Self(
            method: .post,
            path: encodedPath("inApps", "v1", "notifications", "history"),
            queryItems: paginationToken.map { [URLQueryItem(name: "paginationToken", value: $0)] } ?? [],
            body: body,
            pagination: .paginationToken
        )
    }

    /// Request a Test Notification: `POST /inApps/v1/notifications/test`.
    public static var requestTestNotification: Self {
        Self(method: .post, path: encodedPath("inApps", "v1", "notifications", "test"))
    }

    /// Get Test Notification Status: `GET /inApps/v1/notifications/test/{testNotificationToken}`.
    public static func testNotificationStatus(token: String) -> Self {
        Self(method: .get, path: encodedPath("inApps", "v1", "notifications", "test", token))
    }

    /// Extend a Subscription Renewal Date: `PUT /inApps/v1/subscriptions/extend/{originalTransactionId}`.
    public static func extendRenewalDate(originalTransactionID: String, body: ServerAPIRequestBody) -> Self {
        Self(method: .put, path: encodedPath("inApps", "v1", "subscriptions", "extend", originalTransactionID), body: body)
    }

    /// Extend Subscription Renewal Dates for All Active Subscribers:
    /// `POST /inApps/v1/subscriptions/extend/mass`.
    public static func massExtendRenewalDate(body: ServerAPIRequestBody) -> Self {
        Self(method: .post, path: encodedPath("inApps", "v1", "subscriptions", "extend", "mass"), body: body)
    }

    /// Get Status of Subscription Renewal Date Extensions:
    /// `GET /inApps/v1/subscriptions/extend/mass/{productId}/{requestIdentifier}`.
    public static func massExtensionStatus(productID: String, requestIdentifier: String) -> Self {
        Self(method: .get, path: encodedPath("inApps", "v1", "subscriptions", "extend", "mass", productID, requestIdentifier))
    }

    /// Send Consumption Information (v2): `PUT /inApps/v2/transactions/consumption/{transactionId}`.
    public static func consumption(transactionID: String, body: ServerAPIRequestBody) -> Self {
        Self(method: .put, path: encodedPath("inApps", "v2", "transactions", "consumption", transactionID), body: body)
    }

    /// Send Consumption Information, the deprecated v1 form with bucketed fields:
    /// `PUT /inApps/v1/transactions/consumption/{transactionId}`.
    public static func consumptionV1(transactionID: String, body: ServerAPIRequestBody) -> Self {
        Self(method: .put, path: encodedPath("inApps", "v1", "transactions", "consumption", transactionID), body: body)
    }

    /// Set App Account Token: `PUT /inApps/v1/transactions/{originalTransactionId}/appAccountToken`.
    public static func updateAppAccountToken(originalTransactionID: String, body: ServerAPIRequestBody) -> Self {
        Self(method: .put, path: encodedPath("inApps", "v1", "transactions", originalTransactionID, "appAccountToken"), body: body)
    }

    /// Finish Transaction (Server API 1.20): `POST /inApps/v1/transactions/{transactionId}/finish`,
    /// without a body. A server that delivers the content itself tells Apple here instead of
    /// relying on the app's `Transaction.finish()`, which an app killed mid-delivery never calls.
    public static func finishTransaction(transactionID: String) -> Self {
        Self(method: .post, path: encodedPath("inApps", "v1", "transactions", transactionID, "finish"))
    }

    /// Get App Transaction Info: `GET /inApps/v1/transactions/appTransactions/{transactionId}`.
    public static func appTransaction(transactionID: String) -> Self {
        Self(method: .get, path: encodedPath("inApps", "v1", "transactions", "appTransactions", transactionID))
    }

    // MARK: Retention Messaging API

    /// Upload Image: `PUT /inApps/v1/messaging/image/{imageIdentifier}` with the PNG.
    public static func uploadImage(imageIdentifier: String, png: Data) -> Self {
        Self(method: .put, path: encodedPath("inApps", "v1", "messaging", "image", imageIdentifier), body: ServerAPIRequestBody(png: png))
    }

    /// Delete Image: `DELETE /inApps/v1/messaging/image/{imageIdentifier}`.
    public static func deleteImage(imageIdentifier: String) -> Self {
        Self(method: .delete, path: encodedPath("inApps", "v1", "messaging", "image", imageIdentifier))
    }

    /// Get Image List: `GET /inApps/v1/messaging/image/list`.
    public static var imageList: Self { Self(method: .get, path: encodedPath("inApps", "v1", "messaging", "image", "list")) }

    /// Upload Message: `PUT /inApps/v1/messaging/message/{messageIdentifier}` (an ``UploadMessageRequestBody``).
    public static func uploadMessage(messageIdentifier: String, body: ServerAPIRequestBody) -> Self {
        Self(method: .put, path: encodedPath("inApps", "v1", "messaging", "message", messageIdentifier), body: body)
    }

    /// Delete Message: `DELETE /inApps/v1/messaging/message/{messageIdentifier}`.
    public static func deleteMessage(messageIdentifier: String) -> Self {
        Self(method: .delete, path: encodedPath("inApps", "v1", "messaging", "message", messageIdentifier))
    }

    /// Get Message List: `GET /inApps/v1/messaging/message/list`.
    public static var messageList: Self { Self(method: .get, path: encodedPath("inApps", "v1", "messaging", "message", "list")) }

    /// Configure Default Message: `PUT /inApps/v1/messaging/default/{productId}/{locale}` (a ``DefaultConfigurationRequest``).
    public static func configureDefaultMessage(productID: String, locale: String, body: ServerAPIRequestBody) -> Self {
        Self(method: .put, path: encodedPath("inApps", "v1", "messaging", "default", productID, locale), body: body)
    }

    /// Delete Default Message: `DELETE /inApps/v1/messaging/default/{productId}/{locale}`.
    public static func deleteDefaultMessage(productID: String, locale: String) -> Self {
        Self(method: .delete, path: encodedPath("inApps", "v1", "messaging", "default", productID, locale))
    }

    /// Get Default Message: `GET /inApps/v1/messaging/default/{productId}/{locale}`.
    public static func defaultMessage(productID: String, locale: String) -> Self {
        Self(method: .get, path: encodedPath("inApps", "v1", "messaging", "default", productID, locale))
    }

    /// Configure Realtime URL: `PUT /inApps/v1/messaging/realtime/url` (a ``RealtimeUrlRequest``).
    public static func configureRealtimeURL(body: ServerAPIRequestBody) -> Self {
        Self(method: .put, path: encodedPath("inApps", "v1", "messaging", "realtime", "url"), body: body)
    }

    /// Get Realtime URL: `GET /inApps/v1/messaging/realtime/url`.
    public static var realtimeURL: Self { Self(method: .get, path: encodedPath("inApps", "v1", "messaging", "realtime", "url")) }

    /// Delete Realtime URL: `DELETE /inApps/v1/messaging/realtime/url`.
    public static var deleteRealtimeURL: Self { Self(method: .delete, path: encodedPath("inApps", "v1", "messaging", "realtime", "url")) }

    /// Initiate Performance Test: `POST /inApps/v1/messaging/performanceTest` (a ``PerformanceTestRequest``).
    public static func initiatePerformanceTest(body: ServerAPIRequestBody) -> Self {
        Self(method: .post, path: encodedPath("inApps", "v1", "messaging", "performanceTest"), body: body)
    }

    /// Get Performance Test Results: `GET /inApps/v1/messaging/performanceTest/result/{requestId}`.
    public static func performanceTestResult(requestID: String) -> Self {
        Self(method: .get, path: encodedPath("inApps", "v1", "messaging", "performanceTest", "result", requestID))
    }
}
