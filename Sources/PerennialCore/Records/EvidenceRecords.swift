/// What one verified piece of evidence says, normalized: the records the engine merges.
///
/// Every source — receipt, verifyReceipt, signed transaction, V1 or V2 notification, Server API —
/// becomes this same shape, so the engine never knows or cares where a fact came from.
public struct EvidenceRecords: Hashable, Sendable, Codable {
    public var transactions: [Transaction]
    public var renewalInfos: [RenewalInfo]

    public init(transactions: [Transaction] = [], renewalInfos: [RenewalInfo] = []) {
        self.transactions = transactions
        self.renewalInfos = renewalInfos
    }
}
