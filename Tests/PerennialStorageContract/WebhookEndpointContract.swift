import Foundation
public import PerennialStorage
import Testing

/// The behaviour every ``PerennialStorage/WebhookEndpointStore`` must have, run by each back end's
/// test target like ``StorageContract``: endpoints per app, one URL once per app, updates and
/// removals only of an app's own endpoints.
public struct WebhookEndpointContract: Sendable {
    /// One contract check; a case per behaviour so a failure names it.
    public enum Check: String, CaseIterable, Sendable {
        case endpointsAreStoredPerAppOldestFirst
        case aURLIsAddedOncePerApp
        case updatesAndRemovalsTouchOnlyTheAppsOwnEndpoint
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
        case .endpointsAreStoredPerAppOldestFirst: try await endpointsAreStoredPerAppOldestFirst(storage)
        case .aURLIsAddedOncePerApp: try await aURLIsAddedOncePerApp(storage)
        case .updatesAndRemovalsTouchOnlyTheAppsOwnEndpoint: try await updatesAndRemovalsTouchOnlyTheAppsOwnEndpoint(storage)
        }
    }

    private let other = "com.example.other"

    private func endpoint(_ id: String, app: String = ContractFixture.bundleID, url: String, minute: Double = 0) throws -> StoredWebhookEndpoint {
        StoredWebhookEndpoint(
            id: id, appBundleID: app, url: try #require(URL(string: url)), secret: "whsec_\(id)", eventTypes: ["renewal", "refund"],
            createdAt: ContractFixture.day(1).addingTimeInterval(minute * 60), createdBy: "ops")
    }

    func endpointsAreStoredPerAppOldestFirst(_ storage: any SubscriberStorage) async throws {
        let first = try endpoint("e1", url: "https://a.example.com/hooks", minute: 1)
        let second = try endpoint("e2", url: "https://b.example.com/hooks", minute: 2)
        let elsewhere = try endpoint("e3", app: other, url: "https://a.example.com/hooks", minute: 0)
        for added in [second, first, elsewhere] { #expect(try await storage.addWebhookEndpoint(added)) }
        #expect(try await storage.webhookEndpoints(appBundleID: ContractFixture.bundleID) == [first, second])
        #expect(try await storage.webhookEndpoints(appBundleID: other) == [elsewhere])
        #expect(try await storage.webhookEndpoints(appBundleID: nil) == [elsewhere, first, second])
    }

    func aURLIsAddedOncePerApp(_ storage: any SubscriberStorage) async throws {
        let first = try endpoint("e1", url: "https://a.example.com/hooks")
        #expect(try await storage.addWebhookEndpoint(first))
        #expect(try await storage.addWebhookEndpoint(try endpoint("e2", url: "https://a.example.com/hooks")) == false)
        #expect(try await storage.webhookEndpoints(appBundleID: nil) == [first])
    }

    func updatesAndRemovalsTouchOnlyTheAppsOwnEndpoint(_ storage: any SubscriberStorage) async throws {
        let stored = try endpoint("e1", url: "https://a.example.com/hooks")
        #expect(try await storage.addWebhookEndpoint(stored))
        var changed = stored
        changed.isPaused = true
        changed.eventTypes = nil
        changed.previousSecret = stored.secret
        changed.secret = "whsec_rotated"
        changed.previousSecretExpiresAt = ContractFixture.day(2)
        var foreign = changed
        foreign.appBundleID = other
        #expect(try await storage.updateWebhookEndpoint(foreign) == false)
        #expect(try await storage.webhookEndpoints(appBundleID: nil) == [stored])
        #expect(try await storage.updateWebhookEndpoint(changed))
        #expect(try await storage.webhookEndpoints(appBundleID: nil) == [changed])

        #expect(try await storage.removeWebhookEndpoint(id: "e1", appBundleID: other) == nil)
        #expect(try await storage.removeWebhookEndpoint(id: "e1", appBundleID: ContractFixture.bundleID) == changed)
        #expect(try await storage.removeWebhookEndpoint(id: "e1", appBundleID: ContractFixture.bundleID) == nil)
        #expect(try await storage.webhookEndpoints(appBundleID: nil).isEmpty)
        #expect(try await storage.updateWebhookEndpoint(changed) == false)
    }
}
