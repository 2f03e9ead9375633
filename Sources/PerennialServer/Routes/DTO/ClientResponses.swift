public import PerennialWire
public import Foundation
public import PerennialStorage
/// `GET /admin/v1/purchases/{transactionId}`: whose purchase a transaction id is, and that
/// subscriber now.
public struct PurchaseLookupResponse: Codable, Equatable, Sendable {
    public var originalTransactionId: String
    /// `null` while nobody presented the purchase.
    public var appUserId: String?
    /// The owner's subscriber answer in the app the purchase is bound in; `null` without an owner.
    public var subscriber: SubscriberResponse?

    public init(originalTransactionId: String, appUserId: String?, subscriber: SubscriberResponse?) {
        self.originalTransactionId = originalTransactionId
        self.appUserId = appUserId
        self.subscriber = subscriber
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(originalTransactionId, forKey: .originalTransactionId)
        try container.encode(appUserId, forKey: .appUserId)
        try container.encode(subscriber, forKey: .subscriber)
    }
}

/// `GET /admin/v1/apps/{appId}/orders/{orderId}`: the purchases of an order, after applying what
/// Apple answered about it.
public struct OrderLookupAnswer: Codable, Equatable, Sendable {
    public var orderId: String
    public var purchases: [PurchaseLookupResponse]
}

/// `POST /admin/v1/apps/{appId}/test-notifications`: the token to check the delivery with.
public struct TestNotificationRequested: Codable, Equatable, Sendable {
    public var testNotificationToken: String
}

/// `GET /admin/v1/apps/{appId}/test-notifications/{token}`: whether Apple delivered it.
public struct TestNotificationStatus: Codable, Equatable, Sendable {
    public struct Attempt: Codable, Equatable, Sendable {
        public var attemptDate: Date?
        /// Apple's `sendAttemptResult` (`SUCCESS`, `TIMED_OUT`, `NO_RESPONSE`, …).
        public var result: String
    }

    /// Whether an attempt succeeded: this server answered Apple 200.
    public var arrived: Bool
    public var attempts: [Attempt]
}

/// `POST /v1/subscribers/{appUserId}/consumption`: the report as kept (percent back in 0–100).
public struct ConsumptionReportResponse: Codable, Equatable, Sendable {
    public var consumedPercent: Double?
    public var deliveryStatus: String?
    public var sampleContentProvided: Bool?
    public var reportedAt: Date

    init(_ report: ConsumptionReport) {
        consumedPercent = report.consumptionPercentage.map { Double($0) / 1000 }
        deliveryStatus = report.deliveryStatus
        sampleContentProvided = report.sampleContentProvided
        reportedAt = report.reportedAt
    }
}

/// `GET /admin/v1/apps/{appId}/consumption-requests`: the app's refund requests, newest first.
public struct ConsumptionRequestsResponse: Codable, Equatable, Sendable {
    public var requests: [RefundRequestRecord]
}

/// The answer to an extension Apple made whose new state could not be read back: it must not
/// read as a failure, or the operator would extend again. The subscription's reconciliation
/// check, due by its old expiry, applies the new date.
public struct ExtensionNotReadBack: Codable, Equatable, Sendable {
    public var extended: Bool
    public var originalTransactionId: String
    /// The new renewal date Apple reported.
    public var effectiveDate: Date?
    public var message: String

    init(originalTransactionID: String, effectiveDate: Date?, error: any Error) {
        extended = true
        originalTransactionId = originalTransactionID
        self.effectiveDate = effectiveDate
        message =
            "Apple extended subscription \(originalTransactionID); reading its new state back failed (\(error)), so its next reconciliation check applies it. Do not extend it again."
    }
}
