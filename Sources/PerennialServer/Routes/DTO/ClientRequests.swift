/// `POST /v1/subscribers/{appUserId}/receipts`.
public struct ReceiptRequest: Codable, Sendable {
    /// The base64 app receipt.
    public var receipt: String
    public init(receipt: String) { self.receipt = receipt }
}

/// `POST /v1/subscribers/{appUserId}/transactions`.
public struct SignedTransactionRequest: Codable, Sendable {
    /// StoreKit 2's `Transaction.jwsRepresentation`.
    public var signedTransaction: String
    public init(signedTransaction: String) { self.signedTransaction = signedTransaction }
}

/// `POST /v1/subscribers/{appUserId}/eligibility`.
public struct EligibilityRequest: Codable, Sendable {
    public var productIds: [String]
    public init(productIds: [String]) { self.productIds = productIds }
}

/// `POST /v1/subscribers/{appUserId}/offers/sign`.
public struct OfferSignatureRequest: Codable, Sendable {
    public var productId: String
    public var offerId: String
    public init(productId: String, offerId: String) {
        self.productId = productId
        self.offerId = offerId
    }
}
