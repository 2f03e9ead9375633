import Foundation
import GRDB
public import PerennialCore
public import PerennialStorage

extension SQLiteStorage {
    public func addRetentionRule(_ rule: RetentionRule, limit: Int) async throws(StorageError) -> RetentionRuleWrite {
        let record = try Self.json(rule, what: "retention rule \(rule.id)")
        return try await write("add retention rule \(rule.id)") { db in
            let taken = try Bool.fetchOne(
                db.cachedStatement(sql: "SELECT 1 FROM retention_rules WHERE app_bundle_id = ? AND id = ?"), arguments: [rule.appBundleID, rule.id])
            guard taken == nil else { return .idTaken }
            let count = try Int.fetchOne(
                db.cachedStatement(sql: "SELECT COUNT(*) FROM retention_rules WHERE app_bundle_id = ?"), arguments: [rule.appBundleID]) ?? 0
            guard count < limit else { return .limitReached(limit) }
            try db.cachedStatement(sql: "INSERT INTO retention_rules (app_bundle_id, id, record) VALUES (?, ?, ?)")
                .execute(arguments: [rule.appBundleID, rule.id, record])
            return .written
        }
    }

    public func replaceRetentionRule(_ rule: RetentionRule) async throws(StorageError) -> RetentionRuleWrite {
        let record = try Self.json(rule, what: "retention rule \(rule.id)")
        return try await write("replace retention rule \(rule.id)") { db in
            try db.cachedStatement(sql: "UPDATE retention_rules SET record = ? WHERE app_bundle_id = ? AND id = ?")
                .execute(arguments: [record, rule.appBundleID, rule.id])
            return db.changesCount == 1 ? .written : .noSuchRule
        }
    }

    public func removeRetentionRule(id: String, appBundleID: String) async throws(StorageError) -> RetentionRule? {
        try await write("remove retention rule \(id)") { db in
            let stored = try String.fetchOne(
                db.cachedStatement(sql: "DELETE FROM retention_rules WHERE app_bundle_id = ? AND id = ? RETURNING record"),
                arguments: [appBundleID, id])
            return try stored.map { record throws(StorageError) in
                try StorageJSON.decode(RetentionRule.self, from: record, table: "retention_rules", key: id)
            }
        }
    }

    public func retentionRules(appBundleID: String) async throws(StorageError) -> [RetentionRule] {
        try await read("read retention rules") { db in try Self.retentionRules(appBundleID: appBundleID, db) }
    }

    public func retentionChoice(of user: AppUserID, appBundleID: String) async throws(StorageError) -> RetentionRuleChoice? {
        try await read("read retention choice of \(user)") { db in try Self.retentionChoice(of: user, appBundleID: appBundleID, db) }
    }

    static func retentionRules(appBundleID: String, _ db: Database) throws -> [RetentionRule] {
        let rows = try Row.fetchAll(
            db.cachedStatement(sql: "SELECT id, record FROM retention_rules WHERE app_bundle_id = ? ORDER BY id"), arguments: [appBundleID])
        return try rows.map { row throws(StorageError) in
            try StorageJSON.decode(RetentionRule.self, from: row["record"] as String, table: "retention_rules", key: row["id"])
        }
    }

    /// The app's rules as stored, each rule's JSON by its id.
    static func retentionRuleRecords(appBundleID: String, _ db: Database) throws -> [String: String] {
        var records: [String: String] = [:]
        let rows = try Row.fetchCursor(db.cachedStatement(sql: "SELECT id, record FROM retention_rules WHERE app_bundle_id = ?"), arguments: [appBundleID])
        while let row = try rows.next() { records[row[0]] = row[1] }
        return records
    }

    static func retentionChoice(of user: AppUserID, appBundleID: String, _ db: Database) throws -> RetentionRuleChoice? {
        let record = try String.fetchOne(
            db.cachedStatement(sql: "SELECT record FROM retention_choices WHERE app_bundle_id = ? AND app_user_id = ?"),
            arguments: [appBundleID, user.rawValue])
        return try record.map { record throws(StorageError) in
            try StorageJSON.decode(RetentionRuleChoice.self, from: record, table: "retention_choices", key: user.rawValue)
        }
    }

    /// Writes a plan's change of the user's choice: the new one, or none.
    static func store(_ choice: RetentionRuleChoice?, of user: AppUserID, appBundleID: String, _ db: Database) throws {
        guard let choice else {
            try db.cachedStatement(sql: "DELETE FROM retention_choices WHERE app_bundle_id = ? AND app_user_id = ?")
                .execute(arguments: [appBundleID, user.rawValue])
            return
        }
        try db.cachedStatement(
            sql: """
                INSERT INTO retention_choices (app_bundle_id, app_user_id, record) VALUES (?, ?, ?)
                ON CONFLICT (app_bundle_id, app_user_id) DO UPDATE SET record = excluded.record
                """
        ).execute(arguments: [appBundleID, user.rawValue, try json(choice, what: "retention choice of \(user)")])
    }

    private static func json(_ value: some Encodable, what: String) throws(StorageError) -> String {
        String(decoding: try StorageJSON.encode(value, what: what), as: UTF8.self)
    }
}
