public import PerennialWire

extension SignedOffer {
    /// The form to hand the store: the JWS when both the store accepts it and the server produced
    /// it (Apple's direction of travel; the legacy call is deprecated from iOS 26), the legacy
    /// signature otherwise.
    public func form(storeAcceptsJWS: Bool) -> PromotionalOfferForm {
        if storeAcceptsJWS, let compactJWS { return .compactJWS(compactJWS) }
        return .legacy(keyIdentifier: keyIdentifier, nonce: nonce, timestamp: timestamp, signature: signature)
    }
}

/// How a promotional offer's signature is handed to the store.
public enum PromotionalOfferForm: Sendable, Hashable {
    /// `promotionalOffer(offerID:keyID:nonce:signature:timestamp:)` / `SKPaymentDiscount`.
    case legacy(keyIdentifier: String, nonce: String, timestamp: Int64, signature: String)
    /// `promotionalOffer(_:compactJWS:)`.
    case compactJWS(String)
}
