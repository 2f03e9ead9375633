import Crypto
import Foundation
import PerennialAppStore
import Testing

@Suite("Offer JWS signatures")
struct OfferJWSSignatureCreatorTests {
    let privateKey = P256.Signing.PrivateKey()
    let nonce = UUID(uuidString: "0BA3E1B4-6A2E-4C6F-9C1D-6D2B5E1F7A90")!
    let issuedAt = Date(timeIntervalSince1970: 1_700_000_000.9)
    var key: AppStoreConnectKey { AppStoreConnectKey(privateKey: privateKey, keyID: "KEYID1") }

    func expectHeaderAndBaseClaims(_ jws: CompactJWS, audience: String) {
        #expect(jws.header["alg"] as? String == "ES256")
        #expect(jws.header["kid"] as? String == "KEYID1")
        #expect(jws.header["typ"] as? String == "JWT")
        #expect(jws.string("iss") == "issuer-uuid")
        #expect(jws.string("bid") == "com.example.app")
        #expect(jws.string("aud") == audience)
        #expect(jws.integer("iat") == 1_700_000_000)
        #expect(jws.string("nonce") == "0ba3e1b4-6a2e-4c6f-9c1d-6d2b5e1f7a90")
        #expect(jws.isSigned(by: privateKey.publicKey))
        #expect(!jws.isSigned(by: P256.Signing.PrivateKey().publicKey))
    }

    @Test func promotionalOfferV2CarriesProductOfferAndTransaction() throws {
        let creator = PromotionalOfferV2SignatureCreator(key: key, issuerID: "issuer-uuid", bundleID: "com.example.app")
        let jws = try CompactJWS(creator.signature(
            productID: "com.example.monthly", offerIdentifier: "WINBACK", transactionID: "2000000123", nonce: nonce, issuedAt: issuedAt))
        expectHeaderAndBaseClaims(jws, audience: "promotional-offer")
        #expect(jws.string("productId") == "com.example.monthly")
        #expect(jws.string("offerIdentifier") == "WINBACK")
        #expect(jws.string("transactionId") == "2000000123")
        #expect(Set(jws.claims.keys) == ["iss", "bid", "aud", "iat", "nonce", "productId", "offerIdentifier", "transactionId"])
    }

    @Test func promotionalOfferV2OmitsAnAbsentTransaction() throws {
        let creator = PromotionalOfferV2SignatureCreator(key: key, issuerID: "issuer-uuid", bundleID: "com.example.app")
        let jws = try CompactJWS(creator.signature(productID: "p", offerIdentifier: "o", nonce: nonce, issuedAt: issuedAt))
        #expect(jws.claims["transactionId"] == nil)
        #expect(jws.isSigned(by: privateKey.publicKey))
    }

    @Test(arguments: [true, false])
    func introductoryOfferEligibilityCarriesTheDecision(allowed: Bool) throws {
        let creator = IntroductoryOfferEligibilitySignatureCreator(key: key, issuerID: "issuer-uuid", bundleID: "com.example.app")
        let jws = try CompactJWS(creator.signature(
            productID: "com.example.monthly", allowIntroductoryOffer: allowed, transactionID: "2000000123", nonce: nonce, issuedAt: issuedAt))
        expectHeaderAndBaseClaims(jws, audience: "introductory-offer-eligibility")
        #expect(jws.string("productId") == "com.example.monthly")
        #expect(jws.claims["allowIntroductoryOffer"] as? Bool == allowed)
        #expect(jws.string("transactionId") == "2000000123")
        #expect(Set(jws.claims.keys) == ["iss", "bid", "aud", "iat", "nonce", "productId", "allowIntroductoryOffer", "transactionId"])
    }

    @Test func missingIdentifiersAreRefused() {
        let promo = PromotionalOfferV2SignatureCreator(key: key, issuerID: "i", bundleID: "b")
        #expect(throws: OfferSignatureError.emptyField("offerIdentifier")) {
            try promo.signature(productID: "p", offerIdentifier: "", nonce: nonce, issuedAt: issuedAt)
        }
        let intro = IntroductoryOfferEligibilitySignatureCreator(key: key, issuerID: "i", bundleID: "b")
        #expect(throws: OfferSignatureError.emptyField("transactionId")) {
            try intro.signature(productID: "p", allowIntroductoryOffer: true, transactionID: "", nonce: nonce, issuedAt: issuedAt)
        }
    }
}
