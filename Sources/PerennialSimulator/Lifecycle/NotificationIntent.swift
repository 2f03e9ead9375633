public import Foundation
public import PerennialAppStore

/// A notification the App Store would send for one lifecycle step, before any payload is built or
/// signed.
///
/// The lifecycle only decides *that* Apple notifies and about what; the delivery layer later turns
/// an intent into V2 (and V1) payloads carrying the transaction and renewal info as they are at
/// `date`, and applies retries and fault injection.
public struct NotificationIntent: Hashable, Sendable {
    public let type: NotificationTypeV2
    public let subtype: NotificationSubtypeV2?
    /// The subscription (or purchase) the notification is about.
    public let originalTransactionID: String
    /// The transaction the payload's `signedTransactionInfo` carries.
    public let transactionID: String?
    /// When Apple sends it (the payload's `signedDate`).
    public let date: Date
    /// Why the customer asked for a refund, for `CONSUMPTION_REQUEST` (`data.consumptionRequestReason`).
    public let consumptionRequestReason: ConsumptionRequestReason?
    /// For `RENEWAL_EXTENSION`/`SUMMARY`: the mass extension whose outcome the payload's `summary`
    /// reports. Such a notification is about no one subscription (`originalTransactionID` is empty).
    public let massExtension: MassRenewalExtension?

    /// An intent; `subtype` is nil for notification types Apple sends without one.
    public init(
        type: NotificationTypeV2, subtype: NotificationSubtypeV2? = nil,
        originalTransactionID: String, transactionID: String?, date: Date, consumptionRequestReason: ConsumptionRequestReason? = nil,
        massExtension: MassRenewalExtension? = nil
    ) {
        self.type = type
        self.subtype = subtype
        self.originalTransactionID = originalTransactionID
        self.transactionID = transactionID
        self.date = date
        self.consumptionRequestReason = consumptionRequestReason
        self.massExtension = massExtension
    }
}
