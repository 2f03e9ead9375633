import Foundation
public import PerennialCore
public import PerennialStorage
import PostgresNIO

extension PostgresStorage {
    /// The insert happens only while the app has fewer than `limit` rules. Adds to one app wait
    /// for each other (a transaction's advisory lock on the app): without it, operators adding at
    /// the same instant could each count room for the last rule and pass the limit, which bounds
    /// what the rules cost every apply.
    public func addRetentionRule(_ rule: RetentionRule, limit: Int) async throws(StorageError) -> RetentionRuleWrite {
        let record = try Self.json(rule, what: "retention rule \(rule.id)")
        let limit64 = Int64(limit)
        return try await transaction("add retention rule \(rule.id)") { rows in
            _ = try await rows.all(PostgresStatements.Lock(keyClass: 3, sortedKeys: [rule.appBundleID]))
            let inserted = try await rows.connection.query(
                """
                INSERT INTO retention_rules (app_bundle_id, id, record)
                SELECT \(rule.appBundleID), \(rule.id), \(record)
                WHERE (SELECT COUNT(*) FROM retention_rules WHERE app_bundle_id = \(rule.appBundleID)) < \(limit64)
                ON CONFLICT DO NOTHING RETURNING id
                """, logger: rows.logger)
            for try await _ in inserted.decode(String.self) { return .written }
            let found = try await rows.connection.query(
                "SELECT id FROM retention_rules WHERE app_bundle_id = \(rule.appBundleID) AND id = \(rule.id)", logger: rows.logger)
            for try await _ in found.decode(String.self) { return .idTaken }
            return .limitReached(limit)
        }
    }

    public func replaceRetentionRule(_ rule: RetentionRule) async throws(StorageError) -> RetentionRuleWrite {
        let record = try Self.json(rule, what: "retention rule \(rule.id)")
        return try await withRows("replace retention rule \(rule.id)") { rows in
            let updated = try await rows.connection.query(
                "UPDATE retention_rules SET record = \(record) WHERE app_bundle_id = \(rule.appBundleID) AND id = \(rule.id) RETURNING id",
                logger: rows.logger)
            for try await _ in updated.decode(String.self) { return .written }
            return .noSuchRule
        }
    }

    public func removeRetentionRule(id: String, appBundleID: String) async throws(StorageError) -> RetentionRule? {
        try await withRows("remove retention rule \(id)") { rows in
            let removed = try await rows.connection.query(
                "DELETE FROM retention_rules WHERE app_bundle_id = \(appBundleID) AND id = \(id) RETURNING record", logger: rows.logger)
            for try await record in removed.decode(String.self) {
                return try StorageJSON.decode(RetentionRule.self, from: record, table: "retention_rules", key: id)
            }
            return nil
        }
    }

    /// By id byte by byte (`COLLATE "C"`, as SQLite orders), whatever the database's collation.
    public func retentionRules(appBundleID: String) async throws(StorageError) -> [RetentionRule] {
        try await withRows("read retention rules") { rows in try await rows.retentionRules(appBundleID: appBundleID) }
    }

    public func retentionChoice(of user: AppUserID, appBundleID: String) async throws(StorageError) -> RetentionRuleChoice? {
        try await withRows("read retention choice of \(user)") { rows in
            let found = try await rows.connection.query(
                "SELECT record FROM retention_choices WHERE app_bundle_id = \(appBundleID) AND app_user_id = \(user.rawValue)",
                logger: rows.logger)
            for try await record in found.decode(String.self) {
                return try StorageJSON.decode(RetentionRuleChoice.self, from: record, table: "retention_choices", key: user.rawValue)
            }
            return nil
        }
    }

    static func json(_ value: some Encodable, what: String) throws(StorageError) -> String {
        String(decoding: try StorageJSON.encode(value, what: what), as: UTF8.self)
    }
}

extension PostgresRows {
    func retentionRules(appBundleID: String) async throws -> [RetentionRule] {
        let found = try await connection.query(
            "SELECT id, record FROM retention_rules WHERE app_bundle_id = \(appBundleID) ORDER BY id COLLATE \"C\"", logger: logger)
        var rules: [RetentionRule] = []
        for try await (id, record) in found.decode((String, String).self) {
            rules.append(try StorageJSON.decode(RetentionRule.self, from: record, table: "retention_rules", key: id))
        }
        return rules
    }

    /// The app's rules (as stored: the apply decodes them only if it needs them) and the snapshot
    /// users' choices, in one round trip of a prepared statement: every apply asks it.
    func addRetention(to snapshot: inout StorageSnapshot, appBundleID: String) async throws {
        for (kind, key, record) in try await all(RetentionSnapshot(appBundleID: appBundleID, users: snapshot.users.keys.map(\.rawValue))) {
            if kind == "rule" {
                snapshot.retentionRuleRecords[key] = record
            } else {
                snapshot.users[AppUserID(rawValue: key)]?.retentionChoice = try StorageJSON.decode(
                    RetentionRuleChoice.self, from: record, table: "retention_choices", key: key)
            }
        }
    }

    /// The rows of ``addRetention(to:appBundleID:)``: each a rule (by id) or a user's choice (by user).
    struct RetentionSnapshot: PostgresPreparedStatement {
        static let sql = """
            SELECT 'rule', id, record FROM retention_rules WHERE app_bundle_id = $1
            UNION ALL
            SELECT 'choice', app_user_id, record FROM retention_choices WHERE app_bundle_id = $1 AND app_user_id = ANY($2)
            """
        let appBundleID: String
        let users: [String]

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 2)
            bindings.append(appBundleID)
            bindings.append(users)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> (String, String, String) {
            try row.decode((String, String, String).self)
        }
    }

    /// Writes a plan's changes of users' choices; no round trip when there are none.
    func writeRetentionChoices(_ choices: [AppUserID: RetentionRuleChoice?], appBundleID: String) async throws {
        for (user, choice) in choices.sorted(by: { $0.key < $1.key }) {
            if let choice {
                let record = try PostgresStorage.json(choice, what: "retention choice of \(user)")
                try await connection.query(
                    """
                    INSERT INTO retention_choices (app_bundle_id, app_user_id, record) VALUES (\(appBundleID), \(user.rawValue), \(record))
                    ON CONFLICT (app_bundle_id, app_user_id) DO UPDATE SET record = excluded.record
                    """, logger: logger)
            } else {
                try await connection.query(
                    "DELETE FROM retention_choices WHERE app_bundle_id = \(appBundleID) AND app_user_id = \(user.rawValue)", logger: logger)
            }
        }
    }
}
