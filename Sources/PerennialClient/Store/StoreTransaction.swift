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
    /// When a subscription period ends (nil for other products): the offline fallback grants
    /// nothing past it. Not journaled: the journal only uploads.
    public var expirationDate: Date?
    /// What is uploaded.
    public var evidence: TransactionEvidence
    /// Whether the store verified the transaction's signature on the device (StoreKit 2's
    /// `VerificationResult.verified`). Only a verified transaction may grant an entitlement on the
    /// device (the offline fallback): an unverified one may be tampered with or replayed from
    /// another device. Every transaction is uploaded all the same, because the server verifies each
    /// one itself and is the judge. Not journaled: an entry read back from the journal grants nothing.
    public var isVerified = false

    /// A transaction.
    public init(
        transactionID: String, originalTransactionID: String? = nil, productID: String? = nil, appAccountToken: UUID? = nil,
        revocationDate: Date? = nil, expirationDate: Date? = nil, evidence: TransactionEvidence, isVerified: Bool = false
    ) {
        self.transactionID = transactionID
        self.originalTransactionID = originalTransactionID
        self.productID = productID
        self.appAccountToken = appAccountToken
        self.revocationDate = revocationDate
        self.expirationDate = expirationDate
        self.evidence = evidence
        self.isVerified = isVerified
    }

    /// A transaction read from a signed transaction's payload. The signature is not checked here
    /// (the server checks every upload): `isVerified` says whether the store that handed it over
    /// vouches for it.
    public init(signedTransaction: String, isVerified: Bool = false) throws(StoreError) {
        let payload = try SignedTransactionPayload(jws: signedTransaction)
        self.init(
            transactionID: payload.transactionId, originalTransactionID: payload.originalTransactionId,
            productID: payload.productId, appAccountToken: payload.appAccountToken.flatMap(UUID.init(uuidString:)),
            revocationDate: payload.revocationDate.map { Date(timeIntervalSince1970: $0 / 1000) },
            expirationDate: payload.expiresDate.map { Date(timeIntervalSince1970: $0 / 1000) }, evidence: .signedTransaction(signedTransaction), isVerified: isVerified)
    }

    /// Every field but ``isVerified`` and ``expirationDate``: the journal keeps transactions to upload them, never to grant.
    enum CodingKeys: String, CodingKey {
        case transactionID, originalTransactionID, productID, appAccountToken, revocationDate, evidence
    }

    /// The journal's identity for this transaction: its id, distinguished once revoked, so a refund
    /// redelivered under the same id is not mistaken for the purchase already delivered.
    var journalKey: String {
        revocationDate == nil ? transactionID : transactionID + "#revoked"
    }
}
