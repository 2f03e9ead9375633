public import Foundation
import PerennialAppStore
import PerennialCore
public import PerennialStorage

/// An app receipt (StoreKit 1) posted by an app for one of its users.
///
/// In verifyReceipt mode (the default with a shared secret) the receipt goes to verifyReceipt and
/// the answer — with the latest renewals and `pending_renewal_info` — is the evidence; in local
/// mode the PKCS#7 receipt is verified against the configured receipt roots and its in-app records
/// are the evidence.
/// Either way the bundle id and the environment are checked against the app.
public enum ReceiptIngest {
    public static func evidence(receipt: String, user: AppUserID, app: AppContext, now: Date) async throws(IngestError) -> IncomingEvidence {
        let der: Data
        let document: ReceiptDocument
        do throws(ReceiptError) {
            der = try ReceiptInput.bytes(fromBase64OrDER: Array(receipt.utf8))
            document = try ReceiptDocument.decode(der)
        } catch {
            throw .malformedReceipt(error.description)
        }
        if let client = app.verifyReceipt, let secret = app.sharedSecret {
            return try await viaVerifyReceipt(receipt, client: client, secret: secret, user: user, app: app, now: now)
        }
        guard let verifier = app.receiptVerifier else {
            throw .notConfigured("app \(app.id) has no receipt verification (set receipts.sharedSecret or receipts.roots)")
        }
        guard case .appReceipt(let parsed) = document else {
            throw .notConfigured("iOS 6 transaction receipts can only be verified through verifyReceipt")
        }
        return try await locally(parsed, der: der, verifier: verifier, user: user, app: app, now: now)
    }

    private static func locally(
        _ parsed: ParsedAppReceipt, der: Data, verifier: AppReceiptVerifier, user: AppUserID, app: AppContext, now: Date
    ) async throws(IngestError) -> IncomingEvidence {
        let verified: VerifiedAppReceipt
        do throws(ReceiptError) {
            verified = try await verifier.verify(parsed)
        } catch {
            switch error {
            case .malformed, .notSignedData, .missingField: throw .malformedReceipt(error.description)
            default: throw .invalidSignature(error.description)
            }
        }
        guard verified.receipt.bundleID == app.bundleID else {
            throw .wrongBundleID(expected: app.bundleID, actual: verified.receipt.bundleID)
        }
        guard let environment = verified.receipt.receiptType?.environment, app.accepts(environment) else {
            throw .wrongEnvironment(accepted: app.environments.map(\.rawValue), actual: verified.receipt.receiptType?.environment.rawValue)
        }
        let records: EvidenceRecords
        do throws(ReceiptError) {
            records = try verified.evidenceRecords()
        } catch {
            throw .invalidEvidence(error.description)
        }
        return IncomingEvidence(
            appBundleID: app.bundleID, kind: .receipt,
            idempotencyKey: EvidenceDigest.key("receipt", Data(user.rawValue.utf8), der), raw: der,
            receivedAt: now, records: records, presentedBy: user, environment: environment)
    }

    private static func viaVerifyReceipt(
        _ receipt: String, client: VerifyReceiptClient, secret: String, user: AppUserID, app: AppContext, now: Date
    ) async throws(IngestError) -> IncomingEvidence {
        let answer: VerifyReceiptAnswer
        do throws(VerifyReceiptClientError) {
            answer = try await client.verify(
                receiptData: receipt.filter { !$0.isWhitespace }, password: secret, excludeOldTransactions: false,
                startingAt: app.accepts(.production) ? .production : .sandbox)
        } catch {
            switch error {
            case .rejected(.receiptNotAuthenticated, _): throw .receiptRejected(error.description)
            case .rejected: throw .upstreamRejected(error.description)
            case .redirectLoop, .retriesExhausted, .cancelled, .requestEncoding: throw .appleUnavailable(error.description)
            }
        }
        let response: VerifyReceiptResponse
        do throws(DecodingError) {
            response = try answer.response()
        } catch {
            throw .appleUnavailable("unreadable verifyReceipt answer: \(error)")
        }
        let bundleID = [response.receipt?.bundle_id, response.receipt?.bid].compactMap { $0 }.first { !$0.isEmpty }
        guard bundleID == app.bundleID else { throw .wrongBundleID(expected: app.bundleID, actual: bundleID) }
        let environment = response.environment.map { AppStoreEnvironment(rawValue: $0.rawValue) } ?? answer.environment
        guard app.accepts(environment) else {
            throw .wrongEnvironment(accepted: app.environments.map(\.rawValue), actual: environment.rawValue)
        }
        let records: EvidenceRecords
        do throws(NormalizationError) {
            records = try response.evidenceRecords(answeredAt: now, environment: answer.environment)
        } catch {
            throw .invalidEvidence(error.description)
        }
        return IncomingEvidence(
            appBundleID: app.bundleID, kind: .receipt,
            idempotencyKey: EvidenceDigest.key("verifyReceipt", Data(user.rawValue.utf8), answer.body), raw: answer.body,
            receivedAt: now, records: records, presentedBy: user, environment: environment)
    }
}
