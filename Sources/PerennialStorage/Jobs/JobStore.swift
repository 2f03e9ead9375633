public import Foundation

/// Work that outlives the request that asked for it — following a mass extension until Apple
/// completes it, and whatever long job comes next — kept as rows and taken under a lease: a
/// capability of every back end (``SubscriberStorage`` is composed of it).
///
/// Any instance sharing the database can claim a due job; a process that dies mid-job loses its
/// lease when it expires, and another instance takes the job over where its last update left it.
public protocol JobStore: Sendable {
    /// Adds `job`; false when a job with its id exists (asking twice starts it once).
    func addJob(_ job: StoredJob) async throws(StorageError) -> Bool

    /// Leases up to `limit` pending jobs of `kind` that are due at `now` and held by nobody (or
    /// whose lease expired) to `owner` for `leaseFor` seconds, the most overdue first.
    func claimDueJobs(kind: String, owner: String, limit: Int, leaseFor: TimeInterval, now: Date) async throws(StorageError) -> [StoredJob]

    /// Writes the job's state, next attempt and record and releases its lease; false, writing
    /// nothing, when `owner` no longer holds it (its lease expired and another instance took it).
    func updateJob(_ job: StoredJob, heldBy owner: String) async throws(StorageError) -> Bool

    /// The job `id` of `kind`, if any.
    func job(id: String, kind: String) async throws(StorageError) -> StoredJob?
}

/// One job as stored: what the back ends query (kind, state, when it is due) beside the job's own
/// record, which only its kind reads.
public struct StoredJob: Sendable, Equatable {
    /// Whether a job still has work: only `pending` jobs are claimed.
    public enum State: String, Sendable, Codable {
        case pending, done, failed
    }

    public var id: String
    public var kind: String
    public var appBundleID: String
    public var state: State
    public var nextAttemptAt: Date
    /// The kind's own JSON.
    public var record: String

    public init(id: String, kind: String, appBundleID: String, state: State, nextAttemptAt: Date, record: String) {
        self.id = id
        self.kind = kind
        self.appBundleID = appBundleID
        self.state = state
        self.nextAttemptAt = nextAttemptAt
        self.record = record
    }
}
