public import Foundation
public import PerennialStorage
import PostgresNIO

extension PostgresStorage {
    public func addJob(_ job: StoredJob) async throws(StorageError) -> Bool {
        try await perform("add job \(job.id)") {
            let rows = try await client.query(
                """
                INSERT INTO jobs (id, kind, app_bundle_id, state, next_attempt_at, record)
                VALUES (\(job.id), \(job.kind), \(job.appBundleID), \(job.state.rawValue), \(job.nextAttemptAt.timeIntervalSince1970), \(job.record))
                ON CONFLICT (id) DO NOTHING RETURNING id
                """, logger: logger)
            for try await _ in rows.decode(String.self) { return true }
            return false
        }
    }

    public func claimDueJobs(kind: String, owner: String, limit: Int, leaseFor: TimeInterval, now: Date) async throws(StorageError) -> [StoredJob] {
        let claim = ClaimJobs(now: now, limit: limit, owner: owner, leaseExpiresAt: now.addingTimeInterval(leaseFor), kind: kind)
        return try await withRows("claim \(kind) jobs") { rows in
            try await rows.all(claim).sorted { ($0.nextAttemptAt, $0.id) < ($1.nextAttemptAt, $1.id) }
        }
    }

    /// Leases a kind's earliest due pending jobs.
    private struct ClaimJobs: PostgresLeaseClaim {
        static let table = "jobs"
        static let key = "id"
        static let due = "kind = $5 AND state = 'pending' AND next_attempt_at <= $1"
        static let order = "next_attempt_at, id"
        static let columns = ["id", "kind", "app_bundle_id", "state", "next_attempt_at", "record"]
        let now: Date
        let limit: Int
        let owner: String
        let leaseExpiresAt: Date
        let kind: String

        func bindDue(_ bindings: inout PostgresBindings) { bindings.append(kind) }

        func decodeRow(_ row: PostgresRow) throws -> StoredJob {
            let (id, kind, app, state, next, record) = try row.decode((String, String, String, String, Double, String).self)
            return try PostgresStorage.job(id: id, kind: kind, app: app, state: state, next: next, record: record)
        }
    }

    public func updateJob(_ job: StoredJob, heldBy owner: String) async throws(StorageError) -> Bool {
        try await perform("update job \(job.id)") {
            let rows = try await client.query(
                """
                UPDATE jobs SET state = \(job.state.rawValue), next_attempt_at = \(job.nextAttemptAt.timeIntervalSince1970), record = \(job.record),
                    lease_owner = NULL, lease_expires_at = NULL
                WHERE id = \(job.id) AND lease_owner = \(owner)
                RETURNING id
                """, logger: logger)
            for try await _ in rows.decode(String.self) { return true }
            return false
        }
    }

    public func job(id: String, kind: String) async throws(StorageError) -> StoredJob? {
        try await perform("read job \(id)") {
            let rows = try await client.query(
                "SELECT id, kind, app_bundle_id, state, next_attempt_at, record FROM jobs WHERE id = \(id) AND kind = \(kind)", logger: logger)
            return try await Self.jobs(rows).first
        }
    }

    private static func jobs(_ rows: PostgresRowSequence) async throws -> [StoredJob] {
        var jobs: [StoredJob] = []
        for try await (id, kind, app, state, next, record) in rows.decode((String, String, String, String, Double, String).self) {
            jobs.append(try job(id: id, kind: kind, app: app, state: state, next: next, record: record))
        }
        return jobs
    }

    private static func job(id: String, kind: String, app: String, state: String, next: Double, record: String) throws(StorageError) -> StoredJob {
        guard let known = StoredJob.State(rawValue: state) else {
            throw StorageError.corruptRow(table: "jobs", key: id, reason: "unknown state \(state)")
        }
        return StoredJob(id: id, kind: kind, appBundleID: app, state: known, nextAttemptAt: Date(timeIntervalSince1970: next), record: record)
    }
}
