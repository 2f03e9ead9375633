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

    /// `FOR UPDATE SKIP LOCKED`: instances claiming at once each take other jobs.
    public func claimDueJobs(kind: String, owner: String, limit: Int, leaseFor: TimeInterval, now: Date) async throws(StorageError) -> [StoredJob] {
        let at = now.timeIntervalSince1970
        let expires = now.addingTimeInterval(leaseFor).timeIntervalSince1970
        return try await perform("claim \(kind) jobs") {
            let rows = try await client.query(
                """
                UPDATE jobs SET lease_owner = \(owner), lease_expires_at = \(expires)
                WHERE id IN (
                    SELECT id FROM jobs
                    WHERE kind = \(kind) AND state = 'pending' AND next_attempt_at <= \(at) AND (lease_expires_at IS NULL OR lease_expires_at <= \(at))
                    ORDER BY next_attempt_at, id LIMIT \(limit) FOR UPDATE SKIP LOCKED)
                RETURNING id, kind, app_bundle_id, state, next_attempt_at, record
                """, logger: logger)
            return try await Self.jobs(rows).sorted { ($0.nextAttemptAt, $0.id) < ($1.nextAttemptAt, $1.id) }
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
            guard let known = StoredJob.State(rawValue: state) else {
                throw StorageError.corruptRow(table: "jobs", key: id, reason: "unknown state \(state)")
            }
            jobs.append(StoredJob(id: id, kind: kind, appBundleID: app, state: known, nextAttemptAt: Date(timeIntervalSince1970: next), record: record))
        }
        return jobs
    }
}
