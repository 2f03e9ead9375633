import Crypto
import Foundation
import PerennialAppStore

/// Checks a promotional offer signature the way StoreKit does before it lets a purchase through:
/// a known key, a valid ECDSA P-256 signature — over Apple's U+2063-joined fields in the legacy
/// form, over the JWS (claims `aud` = `promotional-offer`, the app's `bid`, the product and offer)
/// in the newer one — a signing time at most 24 hours old, and a nonce never used before.
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

    /// The offer's nonce when StoreKit would let the purchase through, or why it would refuse it;
    /// the nonce is spent (``spend(_:)``) only once the purchase is made. The JWS
    /// form is taken when the device passed one, as `promotionalOffer(_:compactJWS:)` does. A JWS
    /// naming a `transactionId` must name one of `customerTransactionIDs` (the buyer's
    /// transactions and app transaction), so an offer signed for one customer cannot be redeemed by another.
    func check(
        _ offer: DeviceOffer, productID: String, appAccountToken: UUID?, customerTransactionIDs: Set<String>, now: Date
    ) throws(SimulatorRuntimeError) -> UUID {
        guard let offerID = offer.id else { throw .invalidRequest("a promotional offer needs its offer id") }
        if let compactJWS = offer.compactJWS {
            return try checkJWS(compactJWS, offerID: offerID, productID: productID, customerTransactionIDs: customerTransactionIDs, now: now)
        }
        guard let signature = offer.signature else { throw .invalidRequest("a promotional offer needs a signature") }
        let key = try key(signature.keyIdentifier)
        try checkFreshness(issuedAtMilliseconds: Double(signature.timestamp), nonce: signature.nonce, now: now)
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
        return signature.nonce
    }

    /// Marks a redeemed offer's nonce as used: StoreKit takes a signature once.
    mutating func spend(_ nonce: UUID) { usedNonces.insert(nonce) }

    /// The claims of a JWS promotional offer StoreKit checks.
    private struct JWSClaims: Decodable {
        let bid: String
        let aud: String
        let iat: Int64
        let nonce: String
        let productId: String
        let offerIdentifier: String
        let transactionId: String?
    }

    private func checkJWS(
        _ compactJWS: String, offerID: String, productID: String, customerTransactionIDs: Set<String>, now: Date
    ) throws(SimulatorRuntimeError) -> UUID {
        let parts: JWSDecoding.Parts
        let keyID: String
        let claims: JWSClaims
        do {
            parts = try JWSDecoding.parts(of: compactJWS)
            keyID = try JSONDecoder().decode(KeyIDHeader.self, from: parts.headerJSON).kid
            claims = try JSONDecoder().decode(JWSClaims.self, from: parts.payload)
        } catch {
            throw .invalidRequest("promotional offer JWS for '\(offerID)' is malformed: \(error)")
        }
        guard try key(keyID).isValidSignature(parts.signature, for: parts.signingInput) else {
            throw .invalidRequest("promotional offer JWS for '\(offerID)' does not verify")
        }
        guard claims.aud == "promotional-offer", claims.bid == bundleID, claims.productId == productID, claims.offerIdentifier == offerID else {
            throw .invalidRequest(
                "promotional offer JWS is for \(claims.bid) \(claims.productId) \(claims.offerIdentifier) (aud \(claims.aud)), not \(bundleID) \(productID) \(offerID)")
        }
        if let transactionID = claims.transactionId, !customerTransactionIDs.contains(transactionID) {
            throw .invalidRequest("promotional offer JWS names transaction \(transactionID), which is not the buyer's")
        }
        guard let nonce = UUID(uuidString: claims.nonce) else { throw .invalidRequest("promotional offer JWS nonce is not a UUID") }
        try checkFreshness(issuedAtMilliseconds: Double(claims.iat) * 1000, nonce: nonce, now: now)
        return nonce
    }

    private struct KeyIDHeader: Decodable { let kid: String }

    private func key(_ keyID: String) throws(SimulatorRuntimeError) -> P256.Signing.PublicKey {
        guard let key = keys[keyID] else { throw .invalidRequest("promotional offer signed with unknown key '\(keyID)'") }
        return key
    }

    private func checkFreshness(issuedAtMilliseconds: Double, nonce: UUID, now: Date) throws(SimulatorRuntimeError) {
        let age = now.timeIntervalSince1970 * 1000 - issuedAtMilliseconds
        guard !checksTimestamp || (age >= -Self.clockSkewMilliseconds && age <= Self.lifetimeMilliseconds) else {
            throw .invalidRequest("promotional offer signature time \(Int64(issuedAtMilliseconds)) is outside its 24-hour window")
        }
        guard !usedNonces.contains(nonce) else {
            throw .invalidRequest("promotional offer nonce \(nonce.uuidString.lowercased()) was already used")
        }
    }

    private static let lifetimeMilliseconds: Double = 24 * 3_600_000
    /// Tolerates a signer whose clock runs slightly ahead of the store's.
    private static let clockSkewMilliseconds: Double = 300_000
}
