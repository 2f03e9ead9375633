import Crypto
import Foundation
import PerennialAppStore

/// Checks a promotional offer signature the way StoreKit does before it lets a purchase through:
/// a known key, a valid ECDSA P-256 signature over Apple's U+2063-joined fields, a timestamp at
/// most 24 hours old, and a nonce never used before.
///
/// The timestamp is only checked against a simulator following a real clock: a server signs with
/// its own clock, which a virtual clock standing years away would make look expired.
struct PromotionalOfferVerifier: Sendable {
    let bundleID: String
    let keys: [String: P256.Signing.PublicKey]
    let checksTimestamp: Bool
    private(set) var usedNonces: Set<UUID> = []

    init(bundleID: String, keys: [String: P256.Signing.PublicKey], checksTimestamp: Bool) {
        self.bundleID = bundleID
        self.keys = keys
        self.checksTimestamp = checksTimestamp
    }

    /// Accepts the offer (remembering its nonce) or says why StoreKit would refuse it.
    mutating func accept(
        _ signature: PromotionalOfferSignature?, offerID: String?, productID: String, appAccountToken: UUID?, now: Date
    ) throws(SimulatorRuntimeError) {
        guard let signature else { throw .invalidRequest("a promotional offer needs a signature") }
        guard let offerID else { throw .invalidRequest("a promotional offer needs its offer id") }
        guard let key = keys[signature.keyIdentifier] else {
            throw .invalidRequest("promotional offer signed with unknown key '\(signature.keyIdentifier)'")
        }
        let age = now.timeIntervalSince1970 * 1000 - Double(signature.timestamp)
        guard !checksTimestamp || (age >= -Self.clockSkewMilliseconds && age <= Self.lifetimeMilliseconds) else {
            throw .invalidRequest("promotional offer signature timestamp \(signature.timestamp) is outside its 24-hour window")
        }
        guard !usedNonces.contains(signature.nonce) else {
            throw .invalidRequest("promotional offer nonce \(signature.nonce.uuidString.lowercased()) was already used")
        }
        let fields = [
            bundleID, signature.keyIdentifier, productID, offerID, appAccountToken?.uuidString.lowercased() ?? "",
            signature.nonce.uuidString.lowercased(), String(signature.timestamp),
        ]
        let message = Data(fields.joined(separator: "\u{2063}").utf8)
        guard let bytes = Data(base64Encoded: signature.signature),
            let ecdsa = try? P256.Signing.ECDSASignature(derRepresentation: bytes),
            key.isValidSignature(ecdsa, for: message)
        else {
            throw .invalidRequest("promotional offer signature for '\(offerID)' does not verify")
        }
        usedNonces.insert(signature.nonce)
    }

    private static let lifetimeMilliseconds: Double = 24 * 3_600_000
    /// Tolerates a signer whose clock runs slightly ahead of the store's.
    private static let clockSkewMilliseconds: Double = 300_000
}
