import Foundation
import PerennialAppStore
import PerennialTestSupport
import SwiftASN1
import Testing
import X509

/// `perennial receipt decode` on Apple's vectors and on a receipt signed here.
@Suite(.enabled(if: Fixtures.isAvailable))
struct ReceiptCommandTests {
    @Test func decodesTheXcodeReceiptAndRefusesTheAppleRootForIt() throws {
        let path = try Fixtures.url("apple-server-library/xcode/xcode-app-receipt-with-transaction").path
        let decoded = try CLIProcess.run(["receipt", "decode", path])
        #expect(decoded.status == 0, "\(decoded.standardError)")
        let receipt = try decoded.json()["appReceipt"] as? [String: Any]
        let purchases = receipt?["inAppPurchases"] as? [[String: Any]]
        #expect(purchases?.count == 1)
        #expect(purchases?.first?["transactionID"] as? String == "0")
        #expect(purchases?.first?["productID"] as? String == "pass.premium")

        let verified = try CLIProcess.run(["receipt", "decode", path, "--root", Fixtures.url("apple-inc-root.cer").path])
        #expect(verified.status == 1)
        let decision = try verified.json()["verification"] as? [String: Any]
        #expect(decision?["verified"] as? Bool == false)
    }

    @Test func decodesTheIOS6TransactionReceipt() throws {
        let output = try CLIProcess.run(["receipt", "decode", Fixtures.url("apple-server-library/mock_signed_data/legacyTransaction").path])
        #expect(output.status == 0, "\(output.standardError)")
        let info = (try output.json()["transactionReceipt"] as? [String: Any])?["purchaseInfo"] as? [String: Any]
        #expect(info?["transactionID"] as? String == "33993399")
    }

    @Test func verifiesAReceiptSignedByAConfiguredRoot() throws {
        let authority = try ReceiptSigningAuthority(
            notValidBefore: Date(timeIntervalSince1970: 1_577_836_800),
            notValidAfter: Date(timeIntervalSince1970: 2_208_988_800)
        )
        let creation = Date(timeIntervalSince1970: 1_748_736_000)
        let receipt = AppReceipt(
            receiptType: .productionSandbox, appAppleID: 0, bundleID: "com.example.app", appVersion: "7", creationDate: creation,
            inAppPurchases: [AppReceiptInAppPurchase(quantity: 1, productID: "pro.monthly", transactionID: "2000000001", purchaseDate: creation)]
        )
        let directory = try CLIProcess.temporaryDirectory()
        let file = directory.appendingPathComponent("receipt.b64")
        try Data(authority.sign(receipt).base64EncodedString().utf8).write(to: file)
        let root = directory.appendingPathComponent("root.pem")
        try Data(authority.root.serializeAsPEM().pemString.utf8).write(to: root)

        let output = try CLIProcess.run(["receipt", "decode", file.path, "--root", root.path])
        #expect(output.status == 0, "\(output.standardOutput) \(output.standardError)")
        let json = try output.json()
        #expect((json["verification"] as? [String: Any])?["verified"] as? Bool == true)
        #expect((json["appReceipt"] as? [String: Any])?["bundleID"] as? String == "com.example.app")
    }
}
