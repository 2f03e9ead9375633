import Foundation
import PerennialAppStore
import PerennialCore
import PerennialTestSupport
import Testing
import X509

/// Apple's App Store Server Library vectors through the typed verifier: signature and chain, then
/// the app checks (bundle id, environment, app Apple id) each vector is made to pass or fail.
@Suite(.enabled(if: Fixtures.isAvailable))
struct SignedDataVerifierFixtureTests {
    static let mock = "apple-server-library/mock_signed_data"

    func testRoots() throws -> [Certificate] {
        try TrustedRoots.load(contentsOf: Fixtures.url("apple-server-library/certs/testCA.der"))
    }

    func sandboxVerifier(bundleID: String = "com.example") throws -> SignedDataVerifier {
        try SignedDataVerifier(trustedRoots: testRoots(), bundleID: bundleID, environment: .sandbox)
    }

    @Test func transactionInfoVerifiesForComExampleInSandbox() async throws {
        let transaction = try await sandboxVerifier().verifyTransaction(Fixtures.text("\(Self.mock)/transactionInfo"))
        #expect(transaction.bundleId == "com.example")
        #expect(transaction.environment == .sandbox)
        #expect(transaction.signedDate == Date(timeIntervalSince1970: 1_672_956_154))
    }

    @Test func renewalInfoVerifiesInSandbox() async throws {
        let renewalInfo = try await sandboxVerifier().verifyRenewalInfo(Fixtures.text("\(Self.mock)/renewalInfo"))
        #expect(renewalInfo.environment == .sandbox)
    }

    @Test func testNotificationVerifiesAsASandboxTestNotification() async throws {
        let notification = try await sandboxVerifier().verifyNotification(Fixtures.text("\(Self.mock)/testNotification"))
        #expect(notification.payload.notificationType == .test)
        #expect(notification.payload.data?.appAppleId == 1234)
        #expect(notification.transaction == nil)
    }

    @Test func testNotificationFailsAgainstAProductionExpectation() async throws {
        let production = try SignedDataVerifier(trustedRoots: testRoots(), bundleID: "com.example", environment: .production, appAppleID: 1234)
        await #expect(throws: SignedDataVerificationError.wrongEnvironment(expected: .production, actual: "Sandbox")) {
            try await production.verifyNotification(Fixtures.text("\(Self.mock)/testNotification"))
        }
    }

    @Test func transactionInfoFailsForAnotherApp() async throws {
        await #expect(throws: SignedDataVerificationError.wrongBundleID(expected: "com.other", actual: "com.example")) {
            try await sandboxVerifier(bundleID: "com.other").verifyTransaction(Fixtures.text("\(Self.mock)/transactionInfo"))
        }
    }

    @Test func wrongBundleIdFailsOnItsBundleID() async throws {
        // The vector has no signedDate, so the chain is validated at an explicit instant.
        let at = JWSValidationTime.instant(Date(timeIntervalSince1970: 1_700_000_000))
        await #expect(throws: SignedDataVerificationError.wrongBundleID(expected: "com.example", actual: "com.example.wrong")) {
            try await sandboxVerifier().verifyNotification(Fixtures.text("\(Self.mock)/wrongBundleId"), at: at)
        }
    }

    @Test func missingX5CHeaderClaimFailsOnFormat() async throws {
        let error = await #expect(throws: SignedDataVerificationError.self) {
            try await sandboxVerifier().verifyNotification(Fixtures.text("\(Self.mock)/missingX5CHeaderClaim"))
        }
        guard case .signature(.malformed) = error else {
            Issue.record("expected a format rejection, got \(String(describing: error))")
            return
        }
    }

    @Test func xcodeDataIsDecodedOnlyWhenXcodeIsConfigured() async throws {
        let signed = try Fixtures.text("apple-server-library/xcode/xcode-signed-transaction")
        let bundleID = "com.example.naturelab.backyardbirds.example"
        let xcode = try SignedDataVerifier(trustedRoots: [], bundleID: bundleID, environment: .xcode)
        let transaction = try await xcode.verifyTransaction(signed)
        #expect(transaction.environment == .xcode)
        #expect(transaction.transactionId == "0")
        let renewalInfo = try await xcode.verifyRenewalInfo(Fixtures.text("apple-server-library/xcode/xcode-signed-renewal-info"))
        #expect(renewalInfo.environment == .xcode)
        let appTransaction = try await xcode.verifyAppTransaction(Fixtures.text("apple-server-library/xcode/xcode-signed-app-transaction"))
        #expect(appTransaction.receiptType == .xcode)
        #expect(appTransaction.bundleId == bundleID)

        let sandbox = try SignedDataVerifier(trustedRoots: testRoots(), bundleID: bundleID, environment: .sandbox)
        let error = await #expect(throws: SignedDataVerificationError.self) { try await sandbox.verifyTransaction(signed) }
        guard case .signature = error else {
            Issue.record("Xcode data must fail its signature check outside Xcode, got \(String(describing: error))")
            return
        }
    }
}
