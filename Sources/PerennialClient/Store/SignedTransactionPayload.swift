import Foundation

/// The fields the SDK reads from a JWS transaction's payload (Apple's `JWSTransactionDecodedPayload`
/// names). The signature is not checked here: the server verifies every upload.
struct SignedTransactionPayload: Decodable {
    let transactionId: String
    let originalTransactionId: String?
    let productId: String?
    let appAccountToken: String?
    /// Epoch milliseconds.
    let revocationDate: Double?
    /// Epoch milliseconds.
    let expiresDate: Double?

    init(jws: String) throws(StoreError) {
        let parts = jws.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else { throw .malformedTransaction("a JWS has 3 parts, found \(parts.count)") }
        var base64 = parts[1].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard let data = Data(base64Encoded: base64) else { throw .malformedTransaction("JWS payload is not base64url") }
        do {
            self = try JSONDecoder().decode(Self.self, from: data)
        } catch {
            throw .malformedTransaction("JWS payload lacks a transaction: \(error)")
        }
    }
}
