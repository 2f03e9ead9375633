public import Foundation
public import PerennialCore

/// One subscription due to be compared with Apple's answer, as claimed by the reconciliation job.
public struct ReconciliationCheck: Hashable, Sendable {
    public var originalTransactionID: String
    public var appBundleID: String
    /// The environment of the latest evidence: which Apple environment to ask.
    public var environment: AppStoreEnvironment
    /// When the check came due (scheduled after the period's end, by the sweep, or as a retry).
    public var dueAt: Date
    /// Failed attempts since the last successful check, for the backoff.
    public var attempts: Int

    public init(originalTransactionID: String, appBundleID: String, environment: AppStoreEnvironment, dueAt: Date, attempts: Int) {
        self.originalTransactionID = originalTransactionID
        self.appBundleID = appBundleID
        self.environment = environment
        self.dueAt = dueAt
        self.attempts = attempts
    }
}
