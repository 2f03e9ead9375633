/// The body POSTed to verifyReceipt. Property names are Apple's keys with `-` spelled `_`.
public struct VerifyReceiptRequest: Codable, Hashable, Sendable {
    /// Standard base64 of the PKCS#7 app receipt or of an iOS 6 transaction receipt.
    public var receipt_data: String
    /// The app-specific or primary shared secret; required for auto-renewables.
    public var password: String?
    /// Only the latest renewal per subscription in `latest_receipt_info`.
    public var exclude_old_transactions: Bool?

    /// Creates a request.
    public init(receipt_data: String, password: String? = nil, exclude_old_transactions: Bool? = nil) {
        self.receipt_data = receipt_data
        self.password = password
        self.exclude_old_transactions = exclude_old_transactions
    }

    private enum CodingKeys: String, CodingKey {
        case receipt_data = "receipt-data"
        case password
        case exclude_old_transactions = "exclude-old-transactions"
    }
}
