/// The App Store Server API endpoints the simulator answers, recognised from method and path.
/// Path parameters are kept as sent; each endpoint validates its own.
enum ServerAPIRoute: Equatable {
    case subscriptionStatuses(transactionID: String)
    case extendRenewalDate(originalTransactionID: String)
    case transactionHistory(transactionID: String)
    /// The deprecated v1 history, which leaves out finished consumables.
    case transactionHistoryV1(transactionID: String)
    case massExtendRenewalDate
    case massExtensionStatus(productID: String, requestIdentifier: String)
    case appTransactionInfo(transactionID: String)
    case transactionInfo(transactionID: String)
    case refundHistory(transactionID: String)
    case orderLookup(orderID: String)
    case notificationHistory
    case requestTestNotification
    case testNotificationStatus(token: String)
    /// The deprecated v1 body with Apple's integer buckets.
    case consumptionV1(transactionID: String)
    case consumption(transactionID: String)
    case setAppAccountToken(originalTransactionID: String)
    case finishTransaction(transactionID: String)
    /// The Retention Messaging API (``RetentionMessagingRoute``).
    case retention(RetentionMessagingRoute)

    /// What a method and path lead to.
    enum Match: Equatable {
        case route(ServerAPIRoute)
        /// The path exists, but not for this method; `allowed` lists the one that does.
        case methodNotAllowed(allowed: String)
        case notFound
    }

    /// The first pattern that fits the path decides: its method's route, or the methods that path
    /// takes (a path may take several, as `messaging/realtime/url` takes PUT, GET and DELETE).
    static func match(method: String, segments: [String]) -> Match {
        var allowed: [String] = []
        var fitted: [String?]?
        for (pattern, expected, route) in table {
            guard fitted == nil || fitted == pattern, let captures = captures(of: segments, in: pattern) else { continue }
            fitted = pattern
            if method.uppercased() == expected { return .route(route(captures)) }
            allowed.append(expected)
        }
        return allowed.isEmpty ? .notFound : .methodNotAllowed(allowed: allowed.joined(separator: ", "))
    }

    /// Path patterns (nil = a parameter), each endpoint's method and how it reads its parameters.
    private static var table: [([String?], String, ([String]) -> ServerAPIRoute)] {
        [
            // `extend/mass` before `extend/{originalTransactionId}`, which would take "mass" for an id.
            (["inApps", "v1", "subscriptions", "extend", "mass"], "POST", { _ in .massExtendRenewalDate }),
            (["inApps", "v1", "subscriptions", "extend", "mass", nil, nil], "GET", {
                .massExtensionStatus(productID: $0[0], requestIdentifier: $0[1])
            }),
            (["inApps", "v1", "subscriptions", "extend", nil], "PUT", { .extendRenewalDate(originalTransactionID: $0[0]) }),
            (["inApps", "v1", "subscriptions", nil], "GET", { .subscriptionStatuses(transactionID: $0[0]) }),
            (["inApps", "v2", "history", nil], "GET", { .transactionHistory(transactionID: $0[0]) }),
            (["inApps", "v1", "history", nil], "GET", { .transactionHistoryV1(transactionID: $0[0]) }),
            (["inApps", "v1", "transactions", "appTransactions", nil], "GET", { .appTransactionInfo(transactionID: $0[0]) }),
            (["inApps", "v1", "transactions", "consumption", nil], "PUT", { .consumptionV1(transactionID: $0[0]) }),
            (["inApps", "v2", "transactions", "consumption", nil], "PUT", { .consumption(transactionID: $0[0]) }),
            (["inApps", "v1", "transactions", nil, "appAccountToken"], "PUT", { .setAppAccountToken(originalTransactionID: $0[0]) }),
            (["inApps", "v1", "transactions", nil, "finish"], "POST", { .finishTransaction(transactionID: $0[0]) }),
            (["inApps", "v1", "transactions", nil], "GET", { .transactionInfo(transactionID: $0[0]) }),
            (["inApps", "v2", "refund", "lookup", nil], "GET", { .refundHistory(transactionID: $0[0]) }),
            (["inApps", "v1", "lookup", nil], "GET", { .orderLookup(orderID: $0[0]) }),
            (["inApps", "v1", "notifications", "history"], "POST", { _ in .notificationHistory }),
            (["inApps", "v1", "notifications", "test"], "POST", { _ in .requestTestNotification }),
            (["inApps", "v1", "notifications", "test", nil], "GET", { .testNotificationStatus(token: $0[0]) }),
        ] + RetentionMessagingRoute.table.map { pattern, method, route in (pattern, method, { .retention(route($0)) }) }
    }

    /// The parameters of `segments` when they fit `pattern`, nil otherwise.
    private static func captures(of segments: [String], in pattern: [String?]) -> [String]? {
        guard segments.count == pattern.count else { return nil }
        var captures: [String] = []
        for (segment, expected) in zip(segments, pattern) {
            if let expected {
                guard segment == expected else { return nil }
            } else {
                captures.append(segment)
            }
        }
        return captures
    }
}
