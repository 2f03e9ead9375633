import Crypto
import Foundation
import PerennialAppStore
import PerennialTestSupport
import Testing

@Suite("App Store Connect key")
struct AppStoreConnectKeyTests {
    @Test func loadsAGeneratedPEM() throws {
        let privateKey = P256.Signing.PrivateKey()
        let key = try AppStoreConnectKey(pem: privateKey.pemRepresentation, keyID: "ABC")
        #expect(key.privateKey.publicKey.rawRepresentation == privateKey.publicKey.rawRepresentation)
        #expect(key.keyID == "ABC")
    }

    @Test(.enabled(if: Fixtures.isAvailable)) func loadsApplesTestP8() throws {
        let pem = try Fixtures.text("apple-server-library/certs/testSigningKey.p8")
        let key = try AppStoreConnectKey(pem: pem, keyID: "keyId")
        #expect(key.privateKey.publicKey.rawRepresentation.count == 64)
    }

    @Test func garbageIsATypedError() {
        #expect {
            try AppStoreConnectKey(pem: "-----BEGIN PRIVATE KEY-----\nnope\n-----END PRIVATE KEY-----", keyID: "XYZ")
        } throws: { error in
            guard case .unreadablePEM(let keyID, _) = error as? AppStoreConnectKeyError else { return false }
            return keyID == "XYZ"
        }
    }
}
