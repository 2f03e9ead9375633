import Foundation
import PerennialCore
public import PerennialStorage
import Testing

/// The behaviour every ``PerennialStorage/OfferingStore`` must have, run by each back end's test
/// target like ``StorageContract``: offerings per app by id, an id once per app, one default per
/// app, and writes and removals only of an app's own offerings, a refused write changing nothing.
public struct OfferingContract: Sendable {
    /// One contract check; a case per behaviour so a failure names it.
    public enum Check: String, CaseIterable, Sendable {
        case offeringsAreStoredPerAppByIdAsWritten
        case anIdIsAddedOncePerApp
        case anAppHasAtMostOneDefault
        case replacementsAndRemovalsTouchOnlyTheAppsOwnOffering
        case writersAtOnceLeaveOneDefault
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
        case .offeringsAreStoredPerAppByIdAsWritten: try await offeringsAreStoredPerAppByIdAsWritten(storage)
        case .anIdIsAddedOncePerApp: try await anIdIsAddedOncePerApp(storage)
        case .anAppHasAtMostOneDefault: try await anAppHasAtMostOneDefault(storage)
        case .replacementsAndRemovalsTouchOnlyTheAppsOwnOffering: try await replacementsAndRemovalsTouchOnlyTheAppsOwnOffering(storage)
        case .writersAtOnceLeaveOneDefault: try await writersAtOnceLeaveOneDefault(storage)
        }
    }

    private let other = "com.example.other"

    private func offering(_ id: String, app: String = ContractFixture.bundleID, isDefault: Bool = false, priority: Int = 0) -> OfferingDefinition {
        OfferingDefinition(
            id: id, appBundleID: app, productIDs: [ContractFixture.productID, "premium.yearly"],
            metadata: ["en": #"{"title":"Go premium","features":["a","b"]}"#, "de": #"{"title":"Premium"}"#],
            targeting: OfferingTargeting(
                storefronts: ["USA", "CAN"], minimumAppVersion: AppVersion("2.0"), maximumAppVersion: AppVersion("3.1.4"), audiences: [.new, .lapsed]),
            priority: priority, isDefault: isDefault, updatedAt: ContractFixture.day(1), updatedBy: "ops")
    }

    func offeringsAreStoredPerAppByIdAsWritten(_ storage: any SubscriberStorage) async throws {
        let winter = offering("winter-sale", priority: 10)
        let standard = offering("default", isDefault: true)
        let elsewhere = offering("default", app: other, isDefault: true)
        for added in [winter, standard, elsewhere] { #expect(try await storage.addOffering(added) == .written) }
        let stored = try await storage.offerings(appBundleID: ContractFixture.bundleID)
        #expect(stored == [standard, winter])
        #expect(stored.first?.targeting.maximumAppVersion?.components == [3, 1, 4])
        #expect(try await storage.offerings(appBundleID: other) == [elsewhere])
        #expect(try await storage.offerings(appBundleID: "com.example.none").isEmpty)

        // By id as Swift compares them, whatever the database's collation would say.
        for id in ["a-b", "ab", "B", "a_b", "a.b"] { #expect(try await storage.addOffering(offering(id)) == .written) }
        let ids = try await storage.offerings(appBundleID: ContractFixture.bundleID).map(\.id)
        #expect(ids == ids.sorted() && ids.first == "B", "\(ids)")
    }

    func anIdIsAddedOncePerApp(_ storage: any SubscriberStorage) async throws {
        let first = offering("sale", priority: 1)
        #expect(try await storage.addOffering(first) == .written)
        #expect(try await storage.addOffering(offering("sale", priority: 2)) == .idTaken)
        #expect(try await storage.offerings(appBundleID: ContractFixture.bundleID) == [first])
    }

    func anAppHasAtMostOneDefault(_ storage: any SubscriberStorage) async throws {
        let standard = offering("default", isDefault: true)
        #expect(try await storage.addOffering(standard) == .written)
        #expect(try await storage.addOffering(offering("second", isDefault: true)) == .defaultTaken(by: "default"))
        // Another app's default is its own business.
        #expect(try await storage.addOffering(offering("second", app: other, isDefault: true)) == .written)

        let sale = offering("sale")
        #expect(try await storage.addOffering(sale) == .written)
        var promoted = sale
        promoted.isDefault = true
        #expect(try await storage.replaceOffering(promoted) == .defaultTaken(by: "default"))
        #expect(try await storage.offerings(appBundleID: ContractFixture.bundleID) == [standard, sale])

        // The default may be rewritten as a default; once it is not one, another may become it.
        var rewritten = standard
        rewritten.priority = 7
        #expect(try await storage.replaceOffering(rewritten) == .written)
        rewritten.isDefault = false
        #expect(try await storage.replaceOffering(rewritten) == .written)
        #expect(try await storage.replaceOffering(promoted) == .written)
        #expect(try await storage.offerings(appBundleID: ContractFixture.bundleID) == [rewritten, promoted])
    }

    /// Operators (or instances) making different offerings the default at the same moment: one
    /// wins, every other is told which, none fails, and the app has one default.
    func writersAtOnceLeaveOneDefault(_ storage: any SubscriberStorage) async throws {
        let writers = 8
        let added = await withTaskGroup(of: OfferingWrite?.self) { group in
            for index in 0..<writers {
                group.addTask { try? await storage.addOffering(offering("added-\(index)", isDefault: true)) }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(added.filter { $0 == .written }.count == 1, "\(added)")
        let winner = try #require(try await storage.offerings(appBundleID: ContractFixture.bundleID).first(where: \.isDefault))
        #expect(added.filter { $0 == .defaultTaken(by: winner.id) }.count == writers - 1, "\(added)")

        var demoted = winner
        demoted.isDefault = false
        #expect(try await storage.replaceOffering(demoted) == .written)
        for index in 0..<writers where "added-\(index)" != winner.id {
            #expect(try await storage.addOffering(offering("added-\(index)")) == .written)
        }
        let replaced = await withTaskGroup(of: OfferingWrite?.self) { group in
            for index in 0..<writers {
                group.addTask { try? await storage.replaceOffering(offering("added-\(index)", isDefault: true)) }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(replaced.filter { $0 == .written }.count == 1, "\(replaced)")
        let defaults = try await storage.offerings(appBundleID: ContractFixture.bundleID).filter(\.isDefault)
        #expect(defaults.count == 1)
        #expect(replaced.filter { $0 == .defaultTaken(by: defaults.first?.id ?? "") }.count == writers - 1, "\(replaced)")
    }

    func replacementsAndRemovalsTouchOnlyTheAppsOwnOffering(_ storage: any SubscriberStorage) async throws {
        let stored = offering("sale")
        #expect(try await storage.addOffering(stored) == .written)
        var changed = stored
        changed.productIDs = ["premium.yearly"]
        changed.metadata = [:]
        changed.targeting = OfferingTargeting()
        changed.updatedBy = "support"
        var foreign = changed
        foreign.appBundleID = other
        #expect(try await storage.replaceOffering(foreign) == .noSuchOffering)
        #expect(try await storage.offerings(appBundleID: ContractFixture.bundleID) == [stored])
        #expect(try await storage.offerings(appBundleID: other).isEmpty)
        #expect(try await storage.replaceOffering(changed) == .written)
        #expect(try await storage.offerings(appBundleID: ContractFixture.bundleID) == [changed])

        #expect(try await storage.removeOffering(id: "sale", appBundleID: other) == nil)
        #expect(try await storage.removeOffering(id: "sale", appBundleID: ContractFixture.bundleID) == changed)
        #expect(try await storage.removeOffering(id: "sale", appBundleID: ContractFixture.bundleID) == nil)
        #expect(try await storage.offerings(appBundleID: ContractFixture.bundleID).isEmpty)
        #expect(try await storage.replaceOffering(changed) == .noSuchOffering)
    }
}
