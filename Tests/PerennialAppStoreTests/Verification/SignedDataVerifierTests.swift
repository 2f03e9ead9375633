import Foundation
import PerennialAppStore
import PerennialCore
import Testing
import X509

/// The typed verifier on chains generated here: nested JWS in notifications are verified with the
/// same rules as the envelope, and each app check rejects with its own reason.
struct SignedDataVerifierTests {
    static let pki = Result { try JWSTestPKI.generate() }
    static let otherPKI = Result { try JWSTestPKI.generate() }
    static let signedMilliseconds = Int64(JWSTestPKI.signedDate.timeIntervalSince1970 * 1000)

    static func sign(_ object: [String: Any], with pki: AppleShapedPKI) throws -> String {
        try pki.sign(payloadJSON: JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]))
    }

    static func transaction(bundleId: String = "com.example", environment: String = "Sandbox") -> [String: Any] {
        [
            "transactionId": "2000000000000002", "originalTransactionId": "2000000000000001",
            "bundleId": bundleId, "productId": "pro.monthly", "purchaseDate": signedMilliseconds - 1000,
            "expiresDate": signedMilliseconds + 2_592_000_000, "type": "Auto-Renewable Subscription",
            "inAppOwnershipType": "PURCHASED", "signedDate": signedMilliseconds, "environment": environment,
        ]
    }

    static var renewalInfo: [String: Any] { [
        "originalTransactionId": "2000000000000001", "productId": "pro.monthly", "autoRenewProductId": "pro.monthly",
        "autoRenewStatus": 1, "signedDate": signedMilliseconds, "environment": "Sandbox",
    ] }

    static func notification(signedTransaction: String, signedRenewal: String, environment: String = "Sandbox", appAppleId: Int64? = nil) -> [String: Any] {
        var data: [String: Any] = [
            "bundleId": "com.example", "environment": environment,
            "signedTransactionInfo": signedTransaction, "signedRenewalInfo": signedRenewal,
        ]
        if let appAppleId { data["appAppleId"] = appAppleId }
        return [
            "notificationType": "DID_RENEW", "notificationUUID": "6b6f3b8e-0000-4000-8000-000000000001",
            "version": "2.0", "signedDate": signedMilliseconds, "data": data,
        ]
    }

    func verifier(environment: AppStoreEnvironment = .sandbox, appAppleID: Int64? = nil) throws -> SignedDataVerifier {
        try SignedDataVerifier(trustedRoots: [Self.pki.get().root], bundleID: "com.example", environment: environment, appAppleID: appAppleID)
    }

    @Test func notificationWithNestedTransactionAndRenewalInfoVerifies() async throws {
        let pki = try Self.pki.get()
        let signed = try Self.sign(Self.notification(
            signedTransaction: Self.sign(Self.transaction(), with: pki),
            signedRenewal: Self.sign(Self.renewalInfo, with: pki)
        ), with: pki)
        let verified = try await verifier().verifyNotification(signed)
        #expect(verified.payload.notificationType == .didRenew)
        #expect(verified.transaction?.transactionId == "2000000000000002")
        #expect(verified.renewalInfo?.autoRenewProductId == "pro.monthly")
    }

    @Test func nestedTransactionForAnotherAppIsRejectedWithItsField() async throws {
        let pki = try Self.pki.get()
        let signed = try Self.sign(Self.notification(
            signedTransaction: Self.sign(Self.transaction(bundleId: "com.other"), with: pki),
            signedRenewal: Self.sign(Self.renewalInfo, with: pki)
        ), with: pki)
        await #expect(throws: SignedDataVerificationError.nested(field: "signedTransactionInfo", .wrongBundleID(expected: "com.example", actual: "com.other"))) {
            try await verifier().verifyNotification(signed)
        }
    }

    @Test func nestedRenewalInfoSignedByAnUntrustedChainIsRejected() async throws {
        let pki = try Self.pki.get()
        let signed = try Self.sign(Self.notification(
            signedTransaction: Self.sign(Self.transaction(), with: pki),
            signedRenewal: Self.sign(Self.renewalInfo, with: Self.otherPKI.get())
        ), with: pki)
        let error = await #expect(throws: SignedDataVerificationError.self) { try await verifier().verifyNotification(signed) }
        guard case .nested(field: "signedRenewalInfo", .signature) = error else {
            Issue.record("expected the nested renewal info's signature to fail, got \(String(describing: error))")
            return
        }
    }

    @Test func productionChecksTheAppAppleID() async throws {
        let pki = try Self.pki.get()
        let signedTransaction = try Self.sign(Self.transaction(environment: "Production"), with: pki)
        var renewal = Self.renewalInfo
        renewal["environment"] = "Production"
        let signedRenewal = try Self.sign(renewal, with: pki)
        let production = try verifier(environment: .production, appAppleID: 1234)

        let matching = try Self.sign(Self.notification(signedTransaction: signedTransaction, signedRenewal: signedRenewal, environment: "Production", appAppleId: 1234), with: pki)
        #expect(try await production.verifyNotification(matching).transaction?.environment == .production)

        let other = try Self.sign(Self.notification(signedTransaction: signedTransaction, signedRenewal: signedRenewal, environment: "Production", appAppleId: 99), with: pki)
        await #expect(throws: SignedDataVerificationError.wrongAppAppleID(expected: 1234, actual: 99)) {
            try await production.verifyNotification(other)
        }

        let missing = try Self.sign(Self.notification(signedTransaction: signedTransaction, signedRenewal: signedRenewal, environment: "Production"), with: pki)
        await #expect(throws: SignedDataVerificationError.wrongAppAppleID(expected: 1234, actual: nil)) {
            try await production.verifyNotification(missing)
        }
    }

    @Test func productionWithoutAnAppAppleIDCannotBeConfigured() throws {
        #expect(throws: SignedDataVerificationError.missingAppAppleID) {
            try SignedDataVerifier(trustedRoots: [], bundleID: "com.example", environment: .production)
        }
    }

    @Test func sandboxDataIsRejectedByAProductionVerifier() async throws {
        let signed = try Self.sign(Self.transaction(), with: Self.pki.get())
        await #expect(throws: SignedDataVerificationError.wrongEnvironment(expected: .production, actual: "Sandbox")) {
            try await verifier(environment: .production, appAppleID: 1234).verifyTransaction(signed)
        }
    }

    @Test func aVerifiedPayloadOfTheWrongShapeIsMalformed() async throws {
        let signed = try Self.pki.get().sign(payloadJSON: Data(#"{"bundleId": 42, "signedDate": \#(Self.signedMilliseconds)}"#.utf8))
        let error = await #expect(throws: SignedDataVerificationError.self) { try await verifier().verifyTransaction(signed) }
        guard case .malformedPayload = error else {
            Issue.record("expected malformedPayload, got \(String(describing: error))")
            return
        }
    }
}
