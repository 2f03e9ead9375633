import Foundation

/// Each user's timeline: the audit entries every apply and action writes, and the evidence behind
/// them, kept raw. What the timeline routes and the dashboard read, and what an exchange with
/// Apple that changed no record (a retention message chosen) adds to.
public protocol AuditTrail: Sendable {
    /// The user's audit entries in the app, oldest first (with the user's entries older than
    /// app-scoped timelines that no app could be told for).
    func timeline(of user: AppUserID, appBundleID: String) async throws(StorageError) -> [AuditEntry]

    /// Adds a timeline entry that no evidence caused (an exchange with Apple that changed no record).
    func appendAudit(_ entry: AuditEntry.Draft) async throws(StorageError)

    /// Stored evidence by id, with its raw bytes.
    func evidence(id: Int64) async throws(StorageError) -> StoredEvidence?
}
