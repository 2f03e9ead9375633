import Foundation
public import PerennialCore
public import PerennialStorage
import PostgresNIO

extension PostgresStorage {
    /// One statement: the insert happens only when the id is free and the app has no other
    /// default, and the partial unique index turns a concurrent second default into a conflict
    /// that inserts nothing; what stopped it is read afterwards.
    public func addOffering(_ offering: OfferingDefinition) async throws(StorageError) -> OfferingWrite {
        let record = try Self.json(offering)
        return try await withRows("add offering \(offering.id)") { rows in
            let inserted = try await rows.connection.query(
                """
                INSERT INTO offerings (app_bundle_id, id, is_default, record)
                SELECT \(offering.appBundleID), \(offering.id), \(offering.isDefault), \(record)
                WHERE NOT (\(offering.isDefault) AND EXISTS (SELECT 1 FROM offerings WHERE app_bundle_id = \(offering.appBundleID) AND is_default))
                ON CONFLICT DO NOTHING RETURNING id
                """, logger: rows.logger)
            for try await _ in inserted.decode(String.self) { return .written }
            if try await Self.exists(offering, rows) { return .idTaken }
            return try await Self.otherDefault(than: offering, rows).map { .defaultTaken(by: $0) } ?? .idTaken
        }
    }

    /// One statement, as adding; a second default another writer committed after the statement's
    /// snapshot is refused by the partial unique index, and answered as the taken default it is.
    public func replaceOffering(_ offering: OfferingDefinition) async throws(StorageError) -> OfferingWrite {
        let record = try Self.json(offering)
        return try await withRows("replace offering \(offering.id)") { rows in
            do {
                let updated = try await rows.connection.query(
                    """
                    UPDATE offerings SET is_default = \(offering.isDefault), record = \(record)
                    WHERE app_bundle_id = \(offering.appBundleID) AND id = \(offering.id)
                    AND NOT (\(offering.isDefault) AND EXISTS (
                        SELECT 1 FROM offerings WHERE app_bundle_id = \(offering.appBundleID) AND is_default AND id <> \(offering.id)))
                    RETURNING id
                    """, logger: rows.logger)
                for try await _ in updated.decode(String.self) { return .written }
            } catch let error as PSQLError where error.serverInfo?[.sqlState] == Self.uniqueViolation {
                return try await Self.otherDefault(than: offering, rows).map { .defaultTaken(by: $0) } ?? .noSuchOffering
            }
            guard try await Self.exists(offering, rows) else { return .noSuchOffering }
            return try await Self.otherDefault(than: offering, rows).map { .defaultTaken(by: $0) } ?? .noSuchOffering
        }
    }

    /// PostgreSQL's SQLSTATE for a unique index refusing a row.
    private static let uniqueViolation = "23505"

    public func removeOffering(id: String, appBundleID: String) async throws(StorageError) -> OfferingDefinition? {
        try await withRows("remove offering \(id)") { rows in
            let removed = try await rows.connection.query(
                "DELETE FROM offerings WHERE app_bundle_id = \(appBundleID) AND id = \(id) RETURNING record", logger: rows.logger)
            for try await record in removed.decode(String.self) {
                return try StorageJSON.decode(OfferingDefinition.self, from: record, table: "offerings", key: id)
            }
            return nil
        }
    }

    /// By id byte by byte (`COLLATE "C"`, as SQLite orders), whatever the database's collation.
    public func offerings(appBundleID: String) async throws(StorageError) -> [OfferingDefinition] {
        try await withRows("read offerings") { rows in
            let found = try await rows.connection.query(
                "SELECT id, record FROM offerings WHERE app_bundle_id = \(appBundleID) ORDER BY id COLLATE \"C\"", logger: rows.logger)
            var offerings: [OfferingDefinition] = []
            for try await (id, record) in found.decode((String, String).self) {
                offerings.append(try StorageJSON.decode(OfferingDefinition.self, from: record, table: "offerings", key: id))
            }
            return offerings
        }
    }

    private static func exists(_ offering: OfferingDefinition, _ rows: PostgresRows) async throws -> Bool {
        let found = try await rows.connection.query(
            "SELECT id FROM offerings WHERE app_bundle_id = \(offering.appBundleID) AND id = \(offering.id)", logger: rows.logger)
        for try await _ in found.decode(String.self) { return true }
        return false
    }

    /// The app's default when `offering` would be a second one.
    private static func otherDefault(than offering: OfferingDefinition, _ rows: PostgresRows) async throws -> String? {
        guard offering.isDefault else { return nil }
        let found = try await rows.connection.query(
            "SELECT id FROM offerings WHERE app_bundle_id = \(offering.appBundleID) AND is_default AND id <> \(offering.id)", logger: rows.logger)
        for try await id in found.decode(String.self) { return id }
        return nil
    }

    private static func json(_ offering: OfferingDefinition) throws(StorageError) -> String {
        String(decoding: try StorageJSON.encode(offering, what: "offering \(offering.id)"), as: UTF8.self)
    }
}
