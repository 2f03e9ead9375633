public import Foundation
import PerennialAppStore
public import PerennialSimulator

/// Mints the signed evidence the load sends: every notification and transaction carries a new
/// transaction id (and a new notificationUUID), so the server's idempotency cannot turn the load
/// into no-ops.
///
/// Payloads are Apple's models signed by ``SimulatorPKI`` with the leaf key of the PKI the server
/// under load trusts (`perennial serve --simulator --simulator-pki DIR`).
public struct LoadTraffic: Sendable {
    /// Signs every payload.
    public let pki: SimulatorPKI
    /// The demo app's bundle id.
    public let bundleID: String
    /// An auto-renewable product of the demo catalog.
    public let productID: String
    /// Its subscription group.
    public let subscriptionGroupID: String

    /// Traffic for the demo app of `perennial serve --simulator` (Examples/catalog.json).
    public init(
        pki: SimulatorPKI, bundleID: String = "com.example.perennial", productID: String = "com.example.perennial.premium.monthly",
        subscriptionGroupID: String = "20000001"
    ) {
        self.pki = pki
        self.bundleID = bundleID
        self.productID = productID
        self.subscriptionGroupID = subscriptionGroupID
    }

    /// The body of a SUBSCRIBED/INITIAL_BUY V2 notification about a fresh subscription, signed at
    /// `now`, with a fresh notificationUUID.
    public func notificationBody(now: Date) throws(SimulatorWireError) -> String {
        let originalTransactionID = Self.newOriginalTransactionID()
        return try notification(
            .subscribed, subtype: .initialBuy, transaction: transactionPayload(originalTransactionID: originalTransactionID, now: now), now: now)
    }

    /// The body of a DID_RENEW V2 notification: the subscription `originalTransactionID` (bought
    /// in the warm-up) renewed at `now` with a fresh transaction id, so the server applies a new
    /// period and writes a `renewal` event to the subscriber's outbox.
    public func renewalBody(originalTransactionID: String, now: Date) throws(SimulatorWireError) -> String {
        var transaction = transactionPayload(originalTransactionID: originalTransactionID, now: now)
        transaction.transactionId = Self.newOriginalTransactionID()
        transaction.webOrderLineItemId = transaction.transactionId
        transaction.transactionReason = .renewal
        return try notification(.didRenew, subtype: nil, transaction: transaction, now: now)
    }

    /// The body of `POST /v1/subscribers/{user}/transactions` for a subscription bought at `now`
    /// (by default a fresh one).
    public func transactionBody(originalTransactionID: String = newOriginalTransactionID(), now: Date) throws(SimulatorWireError) -> String {
        #"{"signedTransaction":"\#(try pki.sign(transactionPayload(originalTransactionID: originalTransactionID, now: now)))"}"#
    }

    /// The body Apple POSTs to the Get Retention Message endpoint about the subscription
    /// `originalTransactionID`, signed at `now`, with a fresh request identifier.
    public func retentionRequestBody(originalTransactionID: String, now: Date) throws(SimulatorWireError) -> String {
        let request = DecodedRealtimeRequestBody(
            originalTransactionId: originalTransactionID, productId: productID, userLocale: "en-US",
            requestIdentifier: UUID().uuidString.lowercased(), environment: .sandbox, signedDate: now)
        return #"{"signedPayload":"\#(try pki.sign(request))"}"#
    }

    private func notification(
        _ type: NotificationTypeV2, subtype: NotificationSubtypeV2?, transaction: JWSTransactionDecodedPayload, now: Date
    ) throws(SimulatorWireError) -> String {
        let originalTransactionID = transaction.originalTransactionId ?? ""
        let renewalInfo = try pki.sign(
            JWSRenewalInfoDecodedPayload(
                originalTransactionId: originalTransactionID, autoRenewProductId: productID, productId: productID, autoRenewStatus: .on,
                signedDate: now, environment: .sandbox, recentSubscriptionStartDate: now,
                renewalDate: now.addingTimeInterval(Self.period)))
        let payload = ResponseBodyV2DecodedPayload(
            notificationType: type, subtype: subtype, notificationUUID: UUID().uuidString.lowercased(), version: "2.0", signedDate: now,
            data: NotificationData(
                bundleId: bundleID, environment: .sandbox, signedTransactionInfo: try pki.sign(transaction), signedRenewalInfo: renewalInfo,
                status: .active))
        return #"{"signedPayload":"\#(try pki.sign(payload))"}"#
    }

    private func transactionPayload(originalTransactionID: String, now: Date) -> JWSTransactionDecodedPayload {
        JWSTransactionDecodedPayload(
            originalTransactionId: originalTransactionID, transactionId: originalTransactionID, webOrderLineItemId: originalTransactionID,
            bundleId: bundleID, productId: productID, subscriptionGroupIdentifier: subscriptionGroupID, purchaseDate: now,
            originalPurchaseDate: now, expiresDate: now.addingTimeInterval(Self.period), quantity: 1, type: .autoRenewable,
            inAppOwnershipType: .purchased, signedDate: now, environment: .sandbox, storefront: "USA", transactionReason: .purchase,
            currency: "USD", price: 9_990)
    }

    /// A sandbox month lasts five minutes.
    private static let period: TimeInterval = 300

    /// A numeric id, as Apple's are, unique across runs with overwhelming probability.
    public static func newOriginalTransactionID() -> String { String(UInt64.random(in: 1_000_000_000_000...UInt64.max / 2)) }
}
