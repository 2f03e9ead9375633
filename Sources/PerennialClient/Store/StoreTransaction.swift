public import Foundation

/// A transaction as a store back end hands it to the SDK: the proof to upload plus the few fields
/// the SDK needs to route it (it never trusts them for entitlements; the server verifies the proof).
public struct StoreTransaction: Codable, Sendable, Hashable {
    /// The store's transaction id; `finish` is called with it.
    public var transactionID: String
    /// The subscription's first transaction id (renewals share it).
    public var originalTransactionID: String?
    /// The product bought.
    public var productID: String?
    /// The UUID the purchase was stamped with, if any.
    public var appAccountToken: UUID?
    /// Set on a refunded or revoked version of a transaction: the store redelivers the same
    /// transaction id with this date, and it must reach the server too.
    public var revocationDate: Date?
    /// What is uploaded.
    public var evidence: TransactionEvidence

    /// A transaction.
    public init(
        transactionID: String, originalTransactionID: String? = nil, productID: String? = nil, appAccountToken: UUID? = nil,
        revocationDate: Date? = nil, evidence: TransactionEvidence
    ) {
        self.transactionID = transactionID
        self.originalTransactionID = originalTransactionID
        self.productID = productID
        self.appAccountToken = appAccountToken
        self.revocationDate = revocationDate
        self.evidence = evidence
    }

    /// A transaction read from a signed transaction's payload (without verifying the signature:
    /// the server does that; the SDK only needs the ids to route and finish it).
    public init(signedTransaction: String) throws(StoreError) {
        let payload = try SignedTransactionPayload(jws: signedTransaction)
        self.init(
            transactionID: payload.transactionId, originalTransactionID: payload.originalTransactionId,
            productID: payload.productId, appAccountToken: payload.appAccountToken.flatMap(UUID.init(uuidString:)),
            revocationDate: payload.revocationDate.map { Date(timeIntervalSince1970: $0 / 1000) },
            evidence: .signedTransaction(signedTransaction))
    }

    /// The journal's identity for this transaction: its id, distinguished once revoked, so a refund
    /// redelivered under the same id is not mistaken for the purchase already delivered.
    var journalKey: String {
        revocationDate == nil ? transactionID : transactionID + "#revoked"
    }
}
