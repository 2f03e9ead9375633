import Foundation
import PerennialCore
public import PerennialStorage
import Testing

/// The behaviour every ``PerennialStorage/AppTransactionStore`` must have, run by each back end's
/// test target like ``StorageContract``: one original app purchase per user and app, the earliest
/// kept whatever the order, nothing shared between users or apps.
public struct AppTransactionContract: Sendable {
    /// One contract check; a case per behaviour so a failure names it.
    public enum Check: String, CaseIterable, Sendable {
        case recordedPurchaseIsReadBack
        case earliestPurchaseIsKeptInAnyOrder
        case usersAndAppsAreKeptApart
        case survivesAnotherMigration
        case originalPlatformIsKept
    }

    /// Makes a fresh, empty, not yet migrated storage.
    public let makeStorage: @Sendable () async throws -> any SubscriberStorage

    public init(makeStorage: @escaping @Sendable () async throws -> any SubscriberStorage) {
        self.makeStorage = makeStorage
    }

    public func run(_ check: Check) async throws {
        let storage = try await makeStorage()
        try await storage.migrate()
        switch check {
        case .recordedPurchaseIsReadBack: try await recordedPurchaseIsReadBack(storage)
        case .earliestPurchaseIsKeptInAnyOrder: try await earliestPurchaseIsKeptInAnyOrder(storage)
        case .usersAndAppsAreKeptApart: try await usersAndAppsAreKeptApart(storage)
        case .survivesAnotherMigration: try await survivesAnotherMigration(storage)
        case .originalPlatformIsKept: try await originalPlatformIsKept(storage)
        }
    }

    private let alice = AppUserID(rawValue: "alice")
    private let bob = AppUserID(rawValue: "bob")

    /// An app purchase made `days` after the fixture's origin, in version `version`.
    private func purchase(_ id: String, version: String, days: Double, platform: String? = nil) -> OriginalAppPurchase {
        // Whole milliseconds, decoded as Apple's are: what the back ends must keep exactly.
        let milliseconds = Int64((ContractFixture.day(days).timeIntervalSince1970 * 1000).rounded()) + 123
        return OriginalAppPurchase(
            appTransactionID: id, originalApplicationVersion: version, originalPurchaseDate: OriginalAppPurchase.date(milliseconds: milliseconds),
            environment: .sandbox, originalPlatform: platform)
    }

    private func record(_ purchase: OriginalAppPurchase, of user: AppUserID, in storage: any SubscriberStorage, app: String = ContractFixture.bundleID)
        async throws -> OriginalAppPurchase
    {
        try await storage.recordAppTransaction(purchase, of: user, appBundleID: app, signed: "jws-\(purchase.appTransactionID ?? "none")", receivedAt: ContractFixture.day(100))
    }

    func recordedPurchaseIsReadBack(_ storage: any SubscriberStorage) async throws {
        #expect(try await storage.appTransaction(of: alice, appBundleID: ContractFixture.bundleID) == nil)
        let bought = purchase("7001", version: "1.2", days: 3)
        #expect(try await record(bought, of: alice, in: storage) == bought)
        #expect(try await storage.appTransaction(of: alice, appBundleID: ContractFixture.bundleID) == bought)
        // Posting the same app transaction again changes nothing.
        #expect(try await record(bought, of: alice, in: storage) == bought)
    }

    func earliestPurchaseIsKeptInAnyOrder(_ storage: any SubscriberStorage) async throws {
        let early = purchase("7001", version: "1.0", days: 1)
        let late = purchase("7002", version: "3.0", days: 50)
        #expect(try await record(late, of: alice, in: storage) == late)
        #expect(try await record(early, of: alice, in: storage) == early)
        #expect(try await record(late, of: alice, in: storage) == early)
        #expect(try await storage.appTransaction(of: alice, appBundleID: ContractFixture.bundleID) == early)
    }

    func usersAndAppsAreKeptApart(_ storage: any SubscriberStorage) async throws {
        let alices = purchase("7001", version: "1.0", days: 1)
        let bobs = purchase("7002", version: "2.0", days: 2)
        _ = try await record(alices, of: alice, in: storage)
        _ = try await record(bobs, of: bob, in: storage)
        #expect(try await storage.appTransaction(of: alice, appBundleID: ContractFixture.bundleID) == alices)
        #expect(try await storage.appTransaction(of: bob, appBundleID: ContractFixture.bundleID) == bobs)
        #expect(try await storage.appTransaction(of: alice, appBundleID: "com.example.other") == nil)
        let other = purchase("7003", version: "9.0", days: 0)
        _ = try await record(other, of: alice, in: storage, app: "com.example.other")
        #expect(try await storage.appTransaction(of: alice, appBundleID: ContractFixture.bundleID) == alices)
    }

    func survivesAnotherMigration(_ storage: any SubscriberStorage) async throws {
        let bought = purchase("7001", version: "1.0", days: 1)
        _ = try await record(bought, of: alice, in: storage)
        try await storage.migrate()
        #expect(try await storage.appTransaction(of: alice, appBundleID: ContractFixture.bundleID) == bought)
    }

    /// Apple's `originalPlatform` is kept raw (a platform Apple adds later too); a purchase recorded
    /// before it was kept gets it when the app posts the same app transaction again, and a later
    /// purchase's platform never replaces the earliest purchase's.
    func originalPlatformIsKept(_ storage: any SubscriberStorage) async throws {
        let onTheMac = purchase("7001", version: "1.0", days: 1, platform: "macOS")
        #expect(try await record(onTheMac, of: alice, in: storage) == onTheMac)
        #expect(try await record(purchase("7002", version: "2.0", days: 9, platform: "iOS"), of: alice, in: storage) == onTheMac)
        #expect(try await storage.appTransaction(of: alice, appBundleID: ContractFixture.bundleID)?.originalPlatform == "macOS")

        let unknown = purchase("7003", version: "1.0", days: 2, platform: "carOS")
        #expect(try await record(unknown, of: bob, in: storage).originalPlatform == "carOS")

        let carol = AppUserID(rawValue: "carol")
        let before = purchase("7004", version: "1.0", days: 3)
        #expect(try await record(before, of: carol, in: storage).originalPlatform == nil)
        let again = purchase("7004", version: "1.0", days: 3, platform: "visionOS")
        #expect(try await record(again, of: carol, in: storage) == again)
        #expect(try await storage.appTransaction(of: carol, appBundleID: ContractFixture.bundleID) == again)
    }
}
