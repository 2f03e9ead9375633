import Foundation
import PerennialAppStore
import PerennialCore
import PerennialStorage

/// Asks Apple for the current records of one subscription: the App Store Server API's
/// subscription statuses when the app has keys, else verifyReceipt with the latest stored receipt.
/// Every answer is verified by the app's ``PerennialAppStore/AppEvidenceVerifier`` like any other
/// evidence before it becomes records.
struct AppleStatusQuery: Sendable {
    let storage: any SubscriberRecordStore & ReconciliationSchedule

    func ask(_ check: ReconciliationCheck, app: AppContext, now: Date) async throws(ReconciliationError) -> AppEvidenceVerifier.Verified {
        if let client = app.serverAPI {
            do {
                return try await serverAPIAnswer(check.originalTransactionID, app: app, client: client, fallback: check.environment)
            } catch let error as AppStoreServerAPIError {
                throw .apple(error.description)
            } catch let error as StorageError {
                throw .apple("cannot read the stored records: \(error)")
            } catch {
                throw .unreadableAnswer("\(error)")
            }
        }
        if app.verifier.usesVerifyReceipt {
            let stored: StoredEvidence?
            do {
                stored = try await storage.latestReceipt(appBundleID: app.bundleID, originalTransactionID: check.originalTransactionID)
            } catch {
                throw .apple("cannot read the stored receipt: \(error)")
            }
            if let stored {
                do throws(EvidenceError) {
                    return try await app.verifier.reverifyReceipt(receiptData(of: stored), environment: check.environment, receivedAt: now)
                } catch {
                    switch error {
                    case .receiptRejected, .upstreamRejected, .appleUnavailable, .notConfigured: throw .apple(error.description)
                    default: throw .unreadableAnswer("verifyReceipt: \(error)")
                    }
                }
            }
        }
        throw .noWayToAsk(app: app.id, originalTransactionID: check.originalTransactionID)
    }

    /// The subscription's statuses, and — when Apple's latest transaction starts after the last
    /// one held ended (renewals whose notifications were lost, or a billing recovery) — every
    /// transaction of the subscription since the last one held, from its transaction history. The statuses
    /// name only the latest transaction: applied alone, three missed renewals read as one late
    /// billing recovery, and the two charges between were never counted.
    ///
    /// A purchase nobody owns yet has no history held to compare with: its statuses alone are applied.
    ///
    /// - Throws: ``PerennialAppStore/AppStoreServerAPIError`` when Apple cannot be asked,
    ///   ``PerennialAppStore/EvidenceError`` when its answer is not trusted evidence,
    ///   ``PerennialStorage/StorageError`` when the records held cannot be read.
    func serverAPIAnswer(
        _ originalTransactionID: String, app: AppContext, client: AppStoreServerAPIClient, fallback: AppStoreEnvironment
    ) async throws -> AppEvidenceVerifier.Verified {
        var answer = try await app.verifier.subscriptionStatuses(
            try await client.sendReturningData(.subscriptionStatuses(transactionID: originalTransactionID)), fallback: fallback)
        guard let latest = answer.records.transactions.filter({ $0.originalTransactionID == originalTransactionID }).max(by: { $0.purchaseDate < $1.purchaseDate }),
            let held = try await lastHeld(originalTransactionID, app: app), held.transactionID != latest.transactionID,
            let heldEnd = held.expiresDate, latest.purchaseDate > heldEnd
        else { return answer }
        let (pages, history) = try await transactionHistory(originalTransactionID, since: held.purchaseDate.addingTimeInterval(0.001), app: app, client: client)
        answer.records.transactions += history.filter { $0.originalTransactionID == originalTransactionID }
        answer.raw = try Self.evidence(statuses: answer.raw, history: pages)
        return answer
    }

    /// The transactions of the customer who made `transactionID` (any transaction id of theirs, or
    /// their app transaction id) purchased from `since` on (all of them without it), oldest
    /// first, each verified with every rule of the app, and the pages as Apple sent them.
    ///
    /// - Throws: ``PerennialAppStore/AppStoreServerAPIError`` when Apple cannot be asked,
    ///   ``PerennialAppStore/EvidenceError`` when its answer is not trusted evidence.
    func transactionHistory(
        _ transactionID: String, since: Date?, app: AppContext, client: AppStoreServerAPIClient
    ) async throws -> (pages: [Data], transactions: [Transaction]) {
        var query = TransactionHistoryRequest()
        query.startDate = since
        query.sort = .ascending
        let pages = try await client.allPages(.transactionHistory(transactionID: transactionID, query: query))
        let signed = try pages.flatMap { try JSONDecoder().decode(HistoryResponse.self, from: $0).signedTransactions ?? [] }
        return (pages, try await app.verifier.signedTransactions(signed, raw: Data())?.records.transactions ?? [])
    }

    /// What is stored as the evidence of a statuses answer completed by the transaction history:
    /// both answers, as Apple sent them.
    static func evidence(statuses: Data, history pages: [Data]) throws -> Data {
        try JSONSerialization.data(
            withJSONObject: [
                "subscriptionStatuses": try JSONSerialization.jsonObject(with: statuses),
                "transactionHistory": try pages.map { try JSONSerialization.jsonObject(with: $0) },
            ], options: [.sortedKeys])
    }

    /// The newest transaction stored of a subscription someone owns; nil when nobody does.
    private func lastHeld(_ originalTransactionID: String, app: AppContext) async throws -> Transaction? {
        guard let found = try await storage.purchase(ofTransaction: originalTransactionID), let owner = found.owner else { return nil }
        let records = try await storage.records(ownedBy: owner, appBundleID: app.bundleID)
        return records.ledger(originalTransactionID: originalTransactionID)?.transactions.last
    }

    /// The receipt to send: `latest_receipt` of a stored verifyReceipt answer, or the stored
    /// receipt itself (base64).
    private func receiptData(of stored: StoredEvidence) -> String {
        if let answer = try? JSONDecoder().decode(VerifyReceiptResponse.self, from: stored.raw), let latest = answer.latest_receipt {
            return latest
        }
        return stored.raw.base64EncodedString()
    }
}
