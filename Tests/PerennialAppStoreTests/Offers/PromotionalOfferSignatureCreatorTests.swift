import Crypto
import Foundation
import PerennialAppStore
import Testing

@Suite("Legacy promotional offer signature")
struct PromotionalOfferSignatureCreatorTests {
    let privateKey = P256.Signing.PrivateKey()
    let nonce = UUID(uuidString: "0BA3E1B4-6A2E-4C6F-9C1D-6D2B5E1F7A90")!

    var creator: PromotionalOfferSignatureCreator {
        PromotionalOfferSignatureCreator(key: AppStoreConnectKey(privateKey: privateKey, keyID: "KEYID1"), bundleID: "com.example.app")
    }

    @Test func signsTheSeparatedFieldsWithLowercasedUsernameAndNonce() throws {
        let result = try creator.signature(
            productIdentifier: "com.example.monthly", offerIdentifier: "WINBACK",
            applicationUsername: "F3A1C5D2-0000-4000-8000-ABCDEF012345", nonce: nonce, timestamp: 1_700_000_000_123)
        let expected = "com.example.app\u{2063}KEYID1\u{2063}com.example.monthly\u{2063}WINBACK\u{2063}"
            + "f3a1c5d2-0000-4000-8000-abcdef012345\u{2063}0ba3e1b4-6a2e-4c6f-9c1d-6d2b5e1f7a90\u{2063}1700000000123"

        #expect(result.keyIdentifier == "KEYID1")
        #expect(result.nonce == nonce)
        #expect(result.timestamp == 1_700_000_000_123)
        let der = try #require(Data(base64Encoded: result.signature))
        let signature = try P256.Signing.ECDSASignature(derRepresentation: der)
        #expect(privateKey.publicKey.isValidSignature(signature, for: Data(expected.utf8)))
        #expect(!privateKey.publicKey.isValidSignature(signature, for: Data((expected + "0").utf8)))
    }

    @Test func emptyUsernameLeavesAnEmptyField() throws {
        let message = try creator.message(
            productIdentifier: "p", offerIdentifier: "o", applicationUsername: "", nonce: nonce, timestamp: 5)
        #expect(message.components(separatedBy: "\u{2063}") == [
            "com.example.app", "KEYID1", "p", "o", "", "0ba3e1b4-6a2e-4c6f-9c1d-6d2b5e1f7a90", "5",
        ])
    }

    @Test func separatorInsideAFieldIsRefused() {
        #expect(throws: OfferSignatureError.separatorInField(name: "offerIdentifier", value: "a\u{2063}b")) {
            try creator.signature(productIdentifier: "p", offerIdentifier: "a\u{2063}b", applicationUsername: "", nonce: nonce, timestamp: 1)
        }
    }

    @Test func emptyProductIsRefused() {
        #expect(throws: OfferSignatureError.emptyField("productIdentifier")) {
            try creator.signature(productIdentifier: "", offerIdentifier: "o", applicationUsername: "", nonce: nonce, timestamp: 1)
        }
    }
}
