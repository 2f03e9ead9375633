import Foundation
public import PerennialStorage
import Testing

/// The behaviour every ``PerennialStorage/DashboardSessionStore`` must have, run by each back end's
/// test target like ``StorageContract``: a session is found by its digest until it expires or is
/// closed, and expired sessions are forgotten.
public struct DashboardSessionContract: Sendable {
    /// One contract check; a case per behaviour so a failure names it.
    public enum Check: String, CaseIterable, Sendable {
        case sessionIsFoundUntilItExpires
        case closedSessionIsGone
        case expiredSessionsAreForgottenAtTheNextSignIn
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
        case .sessionIsFoundUntilItExpires: try await sessionIsFoundUntilItExpires(storage)
        case .closedSessionIsGone: try await closedSessionIsGone(storage)
        case .expiredSessionsAreForgottenAtTheNextSignIn: try await expiredSessionsAreForgottenAtTheNextSignIn(storage)
        }
    }

    private let start = Date(timeIntervalSince1970: 1_800_000_000)

    private func session(_ digest: String, hours: Double) -> StoredDashboardSession {
        StoredDashboardSession(idDigest: digest, keyName: "ops", keyFingerprint: "fp-\(digest)", expiresAt: start.addingTimeInterval(hours * 3600))
    }

    func sessionIsFoundUntilItExpires(_ storage: any SubscriberStorage) async throws {
        try await storage.openDashboardSession(session("a", hours: 8), now: start)
        #expect(try await storage.dashboardSession(idDigest: "a", now: start.addingTimeInterval(3600)) == session("a", hours: 8))
        #expect(try await storage.dashboardSession(idDigest: "b", now: start) == nil)
        #expect(try await storage.dashboardSession(idDigest: "a", now: start.addingTimeInterval(8 * 3600)) == nil)
    }

    func closedSessionIsGone(_ storage: any SubscriberStorage) async throws {
        try await storage.openDashboardSession(session("a", hours: 8), now: start)
        try await storage.openDashboardSession(session("b", hours: 8), now: start)
        try await storage.closeDashboardSession(idDigest: "a")
        #expect(try await storage.dashboardSession(idDigest: "a", now: start) == nil)
        #expect(try await storage.dashboardSession(idDigest: "b", now: start) != nil)
    }

    /// Sessions nobody closed do not pile up: each sign-in removes those expired by then, so a
    /// session read at an earlier instant than its expiry is gone once a later sign-in passed it.
    func expiredSessionsAreForgottenAtTheNextSignIn(_ storage: any SubscriberStorage) async throws {
        try await storage.openDashboardSession(session("old", hours: 1), now: start)
        try await storage.openDashboardSession(session("new", hours: 10), now: start.addingTimeInterval(2 * 3600))
        #expect(try await storage.dashboardSession(idDigest: "old", now: start) == nil)
        #expect(try await storage.dashboardSession(idDigest: "new", now: start) != nil)
    }
}
