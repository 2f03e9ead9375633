import Foundation
import PerennialAppStore
import PerennialCore
import PerennialStorage

/// Asks Apple for the current records of one subscription: the App Store Server API's
/// subscription statuses when the app has keys, else verifyReceipt with the latest stored receipt.
/// Every signed answer is verified like any other evidence before it becomes records.
struct AppleStatusQuery: Sendable {
    /// What Apple answered, as evidence.
    struct Answer: Sendable {
        let raw: Data
        let records: EvidenceRecords
        let environment: AppStoreEnvironment
        /// `serverAPI` or `verifyReceipt`, for logs.
        let via: String
    }

    let schedule: any ReconciliationSchedule

    func ask(_ check: ReconciliationCheck, app: AppContext, now: Date) async throws(ReconciliationError) -> Answer {
        if let client = app.serverAPI {
            return try await statuses(check, client: client, app: app)
        }
        if let client = app.verifyReceipt, let secret = app.sharedSecret {
            let stored: StoredEvidence?
            do {
                stored = try await schedule.latestReceipt(appBundleID: app.bundleID, originalTransactionID: check.originalTransactionID)
            } catch {
                throw .apple("cannot read the stored receipt: \(error)")
            }
            if let stored {
                return try await verifyReceipt(receiptData(of: stored), check: check, client: client, secret: secret, now: now)
            }
        }
        throw .noWayToAsk(app: app.id, originalTransactionID: check.originalTransactionID)
    }

    private func statuses(_ check: ReconciliationCheck, client: AppStoreServerAPIClient, app: AppContext) async throws(ReconciliationError) -> Answer {
        let data: Data
        do throws(AppStoreServerAPIError) {
            data = try await client.sendReturningData(.subscriptionStatuses(transactionID: check.originalTransactionID))
        } catch {
            throw .apple(error.description)
        }
        let response: StatusResponse
        do {
            response = try JSONDecoder().decode(StatusResponse.self, from: data)
        } catch {
            throw .unreadableAnswer("subscription statuses: \(error)")
        }
        let environment = response.environment.map { AppStoreEnvironment(rawValue: $0.rawValue) } ?? check.environment
        guard let verifier = app.verifier(for: environment) else {
            throw .unreadableAnswer("app \(app.id) does not accept the \(environment.rawValue) environment of the answer")
        }
        var records = EvidenceRecords()
        for item in (response.data ?? []).flatMap({ $0.lastTransactions ?? [] }) {
            do {
                if let signed = item.signedTransactionInfo {
                    records.transactions.append(try await verifier.verifyTransaction(signed).transaction(source: .serverAPI))
                }
                if let signed = item.signedRenewalInfo {
                    records.renewalInfos.append(try await verifier.verifyRenewalInfo(signed).renewalInfo(source: .serverAPI))
                }
            } catch {
                throw .unreadableAnswer("\(error)")
            }
        }
        return Answer(raw: data, records: records, environment: environment, via: "serverAPI")
    }

    /// The receipt to send: `latest_receipt` of a stored verifyReceipt answer, or the stored
    /// receipt itself (base64).
    private func receiptData(of stored: StoredEvidence) -> String {
        if let answer = try? JSONDecoder().decode(VerifyReceiptResponse.self, from: stored.raw), let latest = answer.latest_receipt {
            return latest
        }
        return stored.raw.base64EncodedString()
    }

    private func verifyReceipt(
        _ receipt: String, check: ReconciliationCheck, client: VerifyReceiptClient, secret: String, now: Date
    ) async throws(ReconciliationError) -> Answer {
        let answer: VerifyReceiptAnswer
        do throws(VerifyReceiptClientError) {
            answer = try await client.verify(
                receiptData: receipt, password: secret, excludeOldTransactions: false,
                startingAt: check.environment == .production ? .production : .sandbox)
        } catch {
            throw .apple(error.description)
        }
        do {
            let response = try answer.response()
            let records = try response.evidenceRecords(answeredAt: now, environment: answer.environment)
            return Answer(raw: answer.body, records: records, environment: answer.environment, via: "verifyReceipt")
        } catch {
            throw .unreadableAnswer("verifyReceipt: \(error)")
        }
    }
}
