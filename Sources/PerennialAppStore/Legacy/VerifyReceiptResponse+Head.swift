extension VerifyReceiptResponse {
    /// The status and retry flag of a verifyReceipt answer, read with the full model's keys and
    /// codings but without its receipt.
    ///
    /// The client classifies every answer (redirect, retry, rejection) before anyone reads the
    /// receipt, so content the full model would refuse must not hide a redirect or a retryable
    /// status; the caller decodes the whole ``VerifyReceiptResponse`` afterwards.
    struct Head: Decodable, Sendable {
        /// Apple's status, as open as the full model's.
        let status: VerifyReceiptStatus
        /// Apple's retry flag, read by ``VerifyReceiptResponse/retryFlag(_:hyphenated:)``.
        let isRetryable: Bool

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: VerifyReceiptResponse.CodingKeys.self)
            status = try container.decode(VerifyReceiptStatus.self, forKey: .status)
            isRetryable = VerifyReceiptResponse.retryFlag(
                try container.decode(Lenient<BooleanValue>.self, forKey: .is_retryable).wrappedValue,
                hyphenated: try container.decode(Lenient<BooleanValue>.self, forKey: .is_retryable_hyphenated).wrappedValue
            )
        }
    }
}
