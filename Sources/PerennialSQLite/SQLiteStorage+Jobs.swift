public import Foundation
import GRDB
public import PerennialStorage

extension SQLiteStorage {
    public func addJob(_ job: StoredJob) async throws(StorageError) -> Bool {
        try await write("add job \(job.id)") { db in
            try db.cachedStatement(
                sql: """
                    INSERT INTO jobs (id, kind, app_bundle_id, state, next_attempt_at, record) VALUES (?, ?, ?, ?, ?, ?)
                    ON CONFLICT (id) DO NOTHING
                    """
            ).execute(arguments: [job.id, job.kind, job.appBundleID, job.state.rawValue, job.nextAttemptAt.timeIntervalSince1970, job.record])
            return db.changesCount == 1
        }
    }

    public func claimDueJobs(kind: String, owner: String, limit: Int, leaseFor: TimeInterval, now: Date) async throws(StorageError) -> [StoredJob] {
        try await write("claim \(kind) jobs") { db in
            try SQLiteLease(table: "jobs", key: "id").claim(
                db, columns: "id, kind, app_bundle_id, state, next_attempt_at, record", due: "kind = ? AND state = 'pending' AND next_attempt_at <= ?",
                arguments: [kind, now.timeIntervalSince1970], order: "next_attempt_at, id", limit: limit, owner: owner, now: now, leaseFor: leaseFor,
                decode: Self.job)
        }
    }

    public func updateJob(_ job: StoredJob, heldBy owner: String) async throws(StorageError) -> Bool {
        try await write("update job \(job.id)") { db in
            try db.cachedStatement(
                sql: """
                    UPDATE jobs SET state = ?, next_attempt_at = ?, record = ?, lease_owner = NULL, lease_expires_at = NULL
                    WHERE id = ? AND lease_owner = ?
                    """
            ).execute(arguments: [job.state.rawValue, job.nextAttemptAt.timeIntervalSince1970, job.record, job.id, owner])
            return db.changesCount == 1
        }
    }

    public func job(id: String, kind: String) async throws(StorageError) -> StoredJob? {
        try await read("read job \(id)") { db in
            try Row.fetchOne(
                db.cachedStatement(sql: "SELECT id, kind, app_bundle_id, state, next_attempt_at, record FROM jobs WHERE id = ? AND kind = ?"),
                arguments: [id, kind]
            ).map(Self.job)
        }
    }

    private static func job(_ row: Row) throws -> StoredJob {
        let state: String = row[3]
        guard let known = StoredJob.State(rawValue: state) else {
            throw StorageError.corruptRow(table: "jobs", key: row[0], reason: "unknown state \(state)")
        }
        return StoredJob(
            id: row[0], kind: row[1], appBundleID: row[2], state: known, nextAttemptAt: Date(timeIntervalSince1970: row[4]), record: row[5])
    }
}
