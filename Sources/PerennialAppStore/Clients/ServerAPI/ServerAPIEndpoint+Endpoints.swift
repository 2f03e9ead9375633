import Foundation

/// The endpoints of the App Store Server API that subscription servers use (reference §3.6).
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

    /// Get App Transaction Info: `GET /inApps/v1/transactions/appTransactions/{transactionId}`.
    public static func appTransaction(transactionID: String) -> Self {
        Self(method: .get, path: encodedPath("inApps", "v1", "transactions", "appTransactions", transactionID))
    }
}
