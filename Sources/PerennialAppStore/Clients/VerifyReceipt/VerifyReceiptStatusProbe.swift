import Foundation

/// The few fields of a verifyReceipt answer the client needs to decide what to do next.
///
/// The full response model lives with the other legacy wire models; the client decodes only
/// `status` and the retry flag, leniently, so a receipt with surprising content
/// never stops it from recognising a redirect or a retryable status.
struct VerifyReceiptStatusProbe: Decodable, Sendable {
    /// Apple's status code.
    let status: Int
    /// `is_retryable` or its older spelling `is-retryable`; false when absent.
    let isRetryable: Bool

    private enum CodingKeys: String, CodingKey {
        case status
        case isRetryable = "is_retryable"
        case isRetryableHyphenated = "is-retryable"
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if let number = try? container.decode(Int.self, forKey: .status) {
            status = number
        } else if let text = try? container.decode(String.self, forKey: .status), let number = Int(text) {
            status = number
        } else {
            throw DecodingError.dataCorruptedError(
                forKey: .status, in: container, debugDescription: "verifyReceipt answer has no numeric status")
        }
        isRetryable = Self.flag(in: container, forKey: .isRetryable) || Self.flag(in: container, forKey: .isRetryableHyphenated)
    }

    /// Reads a flag Apple sends as `true`, `1` or `"true"`/`"1"`.
    private static func flag(in container: KeyedDecodingContainer<CodingKeys>, forKey key: CodingKeys) -> Bool {
        if let value = try? container.decode(Bool.self, forKey: key) { return value }
        if let value = try? container.decode(Int.self, forKey: key) { return value != 0 }
        if let value = try? container.decode(String.self, forKey: key) {
            return ["true", "1"].contains(value.lowercased())
        }
        return false
    }
}
