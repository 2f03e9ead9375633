import Foundation
import GRDB
public import PerennialCore
public import PerennialStorage

extension SQLiteStorage {
    public func addOffering(_ offering: OfferingDefinition) async throws(StorageError) -> OfferingWrite {
        let record = try Self.json(offering)
        return try await write("add offering \(offering.id)") { db in
            let taken = try Bool.fetchOne(
                db.cachedStatement(sql: "SELECT 1 FROM offerings WHERE app_bundle_id = ? AND id = ?"), arguments: [offering.appBundleID, offering.id])
            guard taken == nil else { return .idTaken }
            if let other = try Self.otherDefault(than: offering, db) { return .defaultTaken(by: other) }
            try db.cachedStatement(sql: "INSERT INTO offerings (app_bundle_id, id, is_default, record) VALUES (?, ?, ?, ?)")
                .execute(arguments: [offering.appBundleID, offering.id, offering.isDefault, record])
            return .written
        }
    }

    public func replaceOffering(_ offering: OfferingDefinition) async throws(StorageError) -> OfferingWrite {
        let record = try Self.json(offering)
        return try await write("replace offering \(offering.id)") { db in
            if let other = try Self.otherDefault(than: offering, db) {
                let exists = try Bool.fetchOne(
                    db.cachedStatement(sql: "SELECT 1 FROM offerings WHERE app_bundle_id = ? AND id = ?"), arguments: [offering.appBundleID, offering.id])
                return exists == nil ? .noSuchOffering : .defaultTaken(by: other)
            }
            try db.cachedStatement(sql: "UPDATE offerings SET is_default = ?, record = ? WHERE app_bundle_id = ? AND id = ?")
                .execute(arguments: [offering.isDefault, record, offering.appBundleID, offering.id])
            return db.changesCount == 1 ? .written : .noSuchOffering
        }
    }

    public func removeOffering(id: String, appBundleID: String) async throws(StorageError) -> OfferingDefinition? {
        try await write("remove offering \(id)") { db in
            let stored = try String.fetchOne(
                db.cachedStatement(sql: "DELETE FROM offerings WHERE app_bundle_id = ? AND id = ? RETURNING record"), arguments: [appBundleID, id])
            return try stored.map { record throws(StorageError) in
                try StorageJSON.decode(OfferingDefinition.self, from: record, table: "offerings", key: id)
            }
        }
    }

    public func offerings(appBundleID: String) async throws(StorageError) -> [OfferingDefinition] {
        try await read("read offerings") { db in
            let rows = try Row.fetchAll(
                db.cachedStatement(sql: "SELECT id, record FROM offerings WHERE app_bundle_id = ? ORDER BY id"), arguments: [appBundleID])
            return try rows.map { row throws(StorageError) in
                try StorageJSON.decode(OfferingDefinition.self, from: row["record"] as String, table: "offerings", key: row["id"])
            }
        }
    }

    /// The app's default when `offering` would be a second one.
    private static func otherDefault(than offering: OfferingDefinition, _ db: Database) throws -> String? {
        guard offering.isDefault else { return nil }
        return try String.fetchOne(
            db.cachedStatement(sql: "SELECT id FROM offerings WHERE app_bundle_id = ? AND is_default = 1 AND id <> ?"),
            arguments: [offering.appBundleID, offering.id])
    }

    private static func json(_ offering: OfferingDefinition) throws(StorageError) -> String {
        String(decoding: try StorageJSON.encode(offering, what: "offering \(offering.id)"), as: UTF8.self)
    }
}
