public import Foundation

/// One entitlement as the app should treat it right now.
public struct Entitlement: Sendable, Equatable {
    /// The entitlement's identifier from the server's catalog (`pro`).
    public let identifier: String
    /// Judged on the server's clock: the server's own judgement, and not expired since. The device's
    /// wall clock plays no part, so changing it in Settings unlocks nothing and locks nothing.
    public let isActive: Bool
    /// The product that grants it.
    public let productID: String
    /// When access ends (grace period included); nil for a lifetime purchase.
    public let expiresDate: Date?
    /// The subscription it comes from.
    public let originalTransactionID: String
    /// The latest transaction of that subscription.
    public let transactionID: String

    /// An entitlement the offline fallback grants from a store transaction; nil when the device may
    /// not grant from it: the store could not verify its signature (only the server may still
    /// accept it, once uploaded), or it was revoked. Active until the subscription period the
    /// store signed ends, judged at `now` (the server-time estimate).
    init?(identifier: String, storeTransaction transaction: StoreTransaction, productID: String, now: Date) {
        guard transaction.isVerified, transaction.revocationDate == nil else { return nil }
        self.identifier = identifier
        self.isActive = transaction.expirationDate.map { $0 > now } ?? true
        self.productID = productID
        self.expiresDate = transaction.expirationDate
        self.originalTransactionID = transaction.originalTransactionID ?? transaction.transactionID
        self.transactionID = transaction.transactionID
    }

    init(identifier: String, server: ServerEntitlement, serverNow: Date) {
        self.identifier = identifier
        self.isActive = server.isActive && (server.expiresDate.map { $0 > serverNow } ?? true)
        self.productID = server.productID
        self.expiresDate = server.expiresDate
        self.originalTransactionID = server.originalTransactionID
        self.transactionID = server.transactionID
    }
}
