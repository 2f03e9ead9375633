import PerennialCore
public import PerennialStorage

extension EvidencePipeline {
    /// `owner`'s purchases (all of them, or only `originalTransactionID`), as evidence presenting
    /// their stored records again for `target`: one piece per App Store environment, since each
    /// piece of evidence comes from one. Ingesting them is the move; what moves, and what both
    /// users' timelines and webhooks are told, is the ownership decision every presenter gets.
    public func moves(
        of owner: AppUserID, only originalTransactionID: String? = nil, to target: AppUserID, by mover: OwnershipMover
    ) async throws(IngestError) -> [Evidence] {
        let records: RecordSet
        do throws(StorageError) {
            records = try await storage.records(ownedBy: owner, appBundleID: app.bundleID)
        } catch {
            throw .storage(error)
        }
        var byEnvironment: [AppStoreEnvironment: EvidenceRecords] = [:]
        for ledger in records.ledgers where originalTransactionID == nil || ledger.originalTransactionID == originalTransactionID {
            guard let environment = ledger.transactions.last?.environment else { continue }
            byEnvironment[environment, default: EvidenceRecords()].transactions += ledger.transactions
            if let info = ledger.renewalInfo { byEnvironment[environment, default: EvidenceRecords()].renewalInfos.append(info) }
        }
        return byEnvironment.sorted { $0.key.rawValue < $1.key.rawValue }.map { environment, moved in
            Evidence.ownershipMove(moved, environment: environment, to: target, by: mover)
        }
    }
}
