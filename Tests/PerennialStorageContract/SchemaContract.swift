import Foundation
public import PerennialStorage
import Testing

/// The behaviour every back end's ``PerennialStorage/SubscriberStorage/migrate()`` and
/// ``PerennialStorage/SubscriberStorage/schemaStatus()`` must have, run by each back end's test
/// target like ``StorageContract``: a fresh database has every migration pending, migrating
/// applies each once (also when two migrations run at once), and a database a newer Perennial
/// migrated is refused, naming both versions, and left as it was.
public struct SchemaContract: Sendable {
    /// One contract check; a case per behaviour so a failure names it.
    public enum Check: String, CaseIterable, Sendable {
        case aFreshDatabaseHasEveryMigrationPending
        case twoMigrationsAtOnceApplyEachMigrationOnce
        case aDatabaseANewerPerennialMigratedIsRefused
    }

    /// Makes a fresh, empty, not yet migrated storage.
    public let makeStorage: @Sendable () async throws -> any SubscriberStorage
    /// Records in the storage's migrated database a migration newer than any this build knows, as
    /// a newer Perennial would, and returns its identifier as ``PerennialStorage/SchemaStatus`` names it.
    public let recordNewerMigration: @Sendable (any SubscriberStorage) async throws -> String

    public init(
        makeStorage: @escaping @Sendable () async throws -> any SubscriberStorage,
        recordNewerMigration: @escaping @Sendable (any SubscriberStorage) async throws -> String
    ) {
        self.makeStorage = makeStorage
        self.recordNewerMigration = recordNewerMigration
    }

    public func run(_ check: Check) async throws {
        let storage = try await makeStorage()
        switch check {
        case .aFreshDatabaseHasEveryMigrationPending: try await aFreshDatabaseHasEveryMigrationPending(storage)
        case .twoMigrationsAtOnceApplyEachMigrationOnce: try await twoMigrationsAtOnceApplyEachMigrationOnce(storage)
        case .aDatabaseANewerPerennialMigratedIsRefused: try await aDatabaseANewerPerennialMigratedIsRefused(storage)
        }
    }

    func aFreshDatabaseHasEveryMigrationPending(_ storage: any SubscriberStorage) async throws {
        let status = try await storage.schemaStatus()
        #expect(status.applied.isEmpty && status.unknown.isEmpty)
        #expect(status.known.count > 1 && status.pending == status.known)
        #expect(throws: StorageError.migrationsPending(status.known)) { try status.requireCurrent() }
        // Reading the status applied nothing: asking again, the whole schema is still pending.
        #expect(try await storage.schemaStatus() == status)
    }

    func twoMigrationsAtOnceApplyEachMigrationOnce(_ storage: any SubscriberStorage) async throws {
        async let first: Void = storage.migrate()
        async let second: Void = storage.migrate()
        _ = try await (first, second)
        let status = try await storage.schemaStatus()
        #expect(status.applied == status.known)
        #expect(status.pending.isEmpty)
        try status.requireCurrent()
        // A third run at the next start finds nothing to do.
        try await storage.migrate()
        #expect(try await storage.schemaStatus() == status)
        #expect(try await storage.evidenceCount() == 0)
    }

    func aDatabaseANewerPerennialMigratedIsRefused(_ storage: any SubscriberStorage) async throws {
        try await storage.migrate()
        let newer = try await recordNewerMigration(storage)
        let status = try await storage.schemaStatus()
        #expect(status.unknown == [newer] && status.applied.last == newer && status.pending.isEmpty)
        let newestKnown = try #require(status.known.last)
        let refusal = StorageError.schemaNewerThanBinary(databaseMigration: newer, newestKnown: newestKnown)
        #expect(refusal.description.contains("'\(newer)'") && refusal.description.contains("'\(newestKnown)'"), "\(refusal)")
        await #expect(throws: refusal) { try await storage.migrate() }
        #expect(throws: refusal) { try status.requireCurrent() }
        // Refused, not repaired: the newer migration is still recorded, and the next start refuses again.
        #expect(try await storage.schemaStatus() == status)
        await #expect(throws: refusal) { try await storage.migrate() }
    }
}
