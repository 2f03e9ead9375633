import PerennialWire
import Foundation
import Hummingbird
import HummingbirdTesting
import PerennialCore
import PerennialServer
import PerennialSimulator
import PerennialStorage
import Testing

/// Support gives an app user an entitlement until a date or for a duration and takes it back early:
/// the grant counts in every answer beside the purchases, marked as a grant; each change is told to
/// webhooks and written in the timeline with the admin key's name and why; bad input changes nothing.
@Suite struct GrantTests {
    static let dashboard = AdminKeyConfiguration(name: "dashboard", key: "sk_read_only", scope: .readOnly)
    static let desk = AdminKeyConfiguration(name: "desk", key: "sk_support", scope: .support)
    static let grants = "/admin/v1/apps/\(ServerHarness.appID)/subscribers/alice/grants"

    @Test func aGrantGivesTheEntitlementUntilItsEndAndIsToldAndAudited() async throws {
        let server = try await ServerHarness(adminKeys: [Self.dashboard, Self.desk])
        let start = server.clock.now
        try await server.test { client in
            // Alice is known once her app asked for her app account token.
            #expect(try await client.send(.get, "/v1/subscribers/alice/app-account-token").status == .ok)
            let body = Data(#"{"entitlementId": "pro", "duration": "P7D", "reason": "outage on the 3rd"}"#.utf8)
            #expect(try await client.send(.post, Self.grants, key: "sk_read_only", body: body).status == .forbidden)

            let given = try await client.send(.post, Self.grants, key: "sk_support", body: body)
            #expect(given.status == .created, "\(given.text)")
            let answer = try given.decode(SubscriberResponse.self)
            let pro = try #require(answer.subscriber.entitlements["pro"])
            let grant = try #require(answer.subscriber.grants?.first)
            #expect(pro.isActive && pro.productID == "grant" && pro.grantID == grant.grantID && pro.originalTransactionID == grant.grantID)
            #expect(pro.expiresDate == start.addingTimeInterval(7 * 86_400) && grant.expiresAt == pro.expiresDate)
            #expect(grant.grantedBy == "desk" && grant.reason == "outage on the 3rd" && grant.isActive && grant.revokedAt == nil)
            #expect(answer.subscriber.entitlements["basic"] == nil, "a grant of pro gives pro only")

            // The app's own read sees it; after its end it is inactive, still listed.
            #expect(try await client.subscriber("alice").decode(SubscriberResponse.self).subscriber.entitlements["pro"]?.isActive == true)
            server.clock.now = start.addingTimeInterval(7 * 86_400 + 1)
            let later = try await client.subscriber("alice").decode(SubscriberResponse.self)
            #expect(later.subscriber.entitlements["pro"]?.isActive == false && later.subscriber.grants?.first?.isActive == false)
        }
        let events = try await server.storage.pendingOutbox(limit: 10)
        #expect(events.map(\.event.kind) == ["entitlementGranted"] && events.first?.event.appUserID == "alice")
        let entry = try #require(try await server.storage.timeline(of: "alice", appBundleID: StoreWorld.bundleID).last)
        #expect(entry.entry.kind == .entitlementGranted)
        #expect(entry.entry.detail.action == AdminAction(admin: "desk", action: "grant", reason: "outage on the 3rd"))
        #expect(entry.entry.detail.grant?.entitlementID == "pro")
    }

    @Test func badRequestsAreRefusedWithTheirReasonAndStoreNothing() async throws {
        let server = try await ServerHarness()
        try await server.test { client in
            #expect(try await client.send(.get, "/v1/subscribers/alice/app-account-token").status == .ok)
            let cases: [(String, HTTPResponse.Status, String)] = [
                (#"{"entitlementId": "gold", "duration": "P7D"}"#, .unprocessableContent, "unknownEntitlement"),
                (#"{"entitlementId": "pro", "expiresAt": "2020-01-01T00:00:00Z"}"#, .unprocessableContent, "grantEndsInThePast"),
                (#"{"entitlementId": "pro"}"#, .badRequest, "invalidGrantEnd"),
                (#"{"entitlementId": "pro", "duration": "P7D", "expiresAt": "2099-01-01T00:00:00Z"}"#, .badRequest, "invalidGrantEnd"),
                (#"{"entitlementId": "pro", "duration": "7 days"}"#, .badRequest, "invalidGrantEnd"),
                (#"{"entitlementId": "pro", "expiresAt": "tomorrow"}"#, .badRequest, "invalidGrantEnd"),
                (#"{"entitlementId": "pro", "duration": "P99999999999Y"}"#, .badRequest, "invalidGrantEnd"),
                (#"{"entitlementId": "pro", "duration": "P101Y"}"#, .badRequest, "invalidGrantEnd"),
                // Lengths whose days or months overflow (the server crashed) or whose date does not exist.
                (#"{"entitlementId": "pro", "duration": "P9223372036854775807Y"}"#, .badRequest, "invalidGrantEnd"),
                (#"{"entitlementId": "pro", "duration": "P2000000000000000000W"}"#, .badRequest, "invalidGrantEnd"),
                (#"{"entitlementId": "pro", "duration": "P9223372036854775807D"}"#, .badRequest, "invalidGrantEnd"),
                (#"{"entitlementId": "pro", "duration": "P36600D"}"#, .badRequest, "invalidGrantEnd"),
                (#"{"entitlementId": "pro", "expiresAt": "9999-12-31T00:00:00Z"}"#, .badRequest, "invalidGrantEnd"),
                (#"{"duration": "P7D"}"#, .badRequest, "malformedRequest"),
            ]
            for (body, status, code) in cases {
                let refused = try await client.send(.post, Self.grants, key: ServerHarness.adminKey, body: Data(body.utf8))
                #expect(refused.status == status && refused.errorCode == code, "\(body) → \(refused.status) \(refused.text)")
            }
            let nobody = try await client.send(
                .post, "/admin/v1/apps/\(ServerHarness.appID)/subscribers/nobody/grants", key: ServerHarness.adminKey,
                body: Data(#"{"entitlementId": "pro", "duration": "P7D"}"#.utf8))
            #expect(nobody.status == .notFound && nobody.errorCode == "unknownUser")
            let otherApp = try await client.send(
                .post, "/admin/v1/apps/elsewhere/subscribers/alice/grants", key: ServerHarness.adminKey,
                body: Data(#"{"entitlementId": "pro", "duration": "P7D"}"#.utf8))
            #expect(otherApp.status == .notFound)
        }
        #expect(try await server.storage.grants(of: "alice", appBundleID: StoreWorld.bundleID).isEmpty)
        #expect(try await server.storage.grants(of: "nobody", appBundleID: StoreWorld.bundleID).isEmpty)
        #expect(try await server.storage.pendingOutbox(limit: 10).isEmpty)
        #expect(try await server.storage.timeline(of: "alice", appBundleID: StoreWorld.bundleID).isEmpty)
    }

    /// A timeline entry's instant is stored as seconds since 1970, which for some instants reads
    /// back a unit in the last place before the grant's start: the grant is still shown active
    /// in the entry that gave it, and not in the one that revoked it.
    @Test func theTimelineShowsAGrantAsItsChangeLeftIt() async throws {
        let candidates = (1...1_000).lazy.map { Date(timeIntervalSinceReferenceDate: 821_692_800 + Double($0) * 0.123_456_7) }
        let now = try #require(candidates.first { Date(timeIntervalSince1970: $0.timeIntervalSince1970) < $0 })
        let server = try await ServerHarness()
        server.clock.now = now
        try await server.test { client in
            #expect(try await client.send(.get, "/v1/subscribers/alice/app-account-token").status == .ok)
            let given = try await client.send(.post, Self.grants, key: ServerHarness.adminKey, body: Data(#"{"entitlementId": "pro", "duration": "P7D"}"#.utf8))
            #expect(given.status == .created)
            let grantID = try #require(try given.decode(SubscriberResponse.self).subscriber.grants?.first?.grantID)
            #expect(try await client.send(.post, "\(Self.grants)/\(grantID)/revoke", key: ServerHarness.adminKey, body: Data("{}".utf8)).status == .ok)
            let timeline = try await client.send(.get, "/admin/v1/subscribers/alice/timeline", key: ServerHarness.adminKey)
            let entries = (try JSONSerialization.jsonObject(with: timeline.data) as? [String: Any])?["entries"] as? [[String: Any]] ?? []
            let grants = entries.compactMap { entry in (entry["kind"] as? String).map { ($0, (entry["grant"] as? [String: Any])?["isActive"] as? Bool) } }
                .filter { $0.0 == "entitlementGranted" || $0.0 == "grantRevoked" }
            #expect(grants.map(\.0) == ["entitlementGranted", "grantRevoked"] && grants.map(\.1) == [true, false], "\(grants)")
        }
    }

    /// The century is the limit, not past it, at any instant: the end and the limit are computed
    /// with one calendar (they were not, and a grant of P100Y was refused at some instants).
    @Test func aGrantOfExactlyACenturyIsGivenAtAnyInstant() async throws {
        let server = try await ServerHarness()
        try await server.test { client in
            #expect(try await client.send(.get, "/v1/subscribers/alice/app-account-token").status == .ok)
            for instant in [1_700_000_000.123, 1_709_208_000.5, 1_735_689_599.999, 1_767_225_600.777] {
                server.clock.now = Date(timeIntervalSince1970: instant)
                for duration in ["P100Y", "P1200M"] {
                    let body = Data(#"{"entitlementId": "pro", "duration": "\#(duration)"}"#.utf8)
                    let given = try await client.send(.post, Self.grants, key: ServerHarness.adminKey, body: body)
                    #expect(given.status == .created, "\(duration) at \(instant) → \(given.status) \(given.text)")
                }
            }
        }
    }

    @Test func aRevokedGrantGivesWayToThePurchaseAndIsRevokedOnce() async throws {
        var world = try StoreWorld()
        let (transaction, _) = try world.buy("basic.monthly")
        let signed = try world.signed(transaction)
        let server = try await ServerHarness(adminKeys: [Self.dashboard, Self.desk])
        server.clock.now = world.state.now.addingTimeInterval(10)
        try await server.test { client in
            #expect(try await client.postTransaction(signed, user: "alice").status == .ok)
            let year = Data(#"{"entitlementId": "basic", "duration": "P1Y", "reason": "partner"}"#.utf8)
            let given = try await client.send(.post, Self.grants, key: "sk_support", body: year).decode(SubscriberResponse.self)
            // The year's grant outlasts the month's purchase, so it decides "basic"; the purchase is still listed.
            let grantID = try #require(given.subscriber.entitlements["basic"]?.grantID)
            #expect(given.subscriber.subscriptions.map(\.productID) == ["basic.monthly"])

            let revoke = "\(Self.grants)/\(grantID)/revoke"
            let why = Data(#"{"reason": "partnership ended"}"#.utf8)
            #expect(try await client.send(.post, revoke, key: "sk_read_only", body: why).status == .forbidden)
            let revoked = try await client.send(.post, revoke, key: "sk_support", body: why)
            #expect(revoked.status == .ok, "\(revoked.text)")
            let answer = try revoked.decode(SubscriberResponse.self)
            let basic = try #require(answer.subscriber.entitlements["basic"])
            #expect(basic.isActive && basic.grantID == nil && basic.productID == "basic.monthly")
            let grant = try #require(answer.subscriber.grants?.first)
            #expect(!grant.isActive && grant.revokedBy == "desk" && grant.revokeReason == "partnership ended" && grant.revokedAt == server.clock.now)

            let again = try await client.send(.post, revoke, key: "sk_support", body: why)
            #expect(again.status == .notFound && again.errorCode == "noRunningGrant")
            let unknown = try await client.send(.post, "\(Self.grants)/grant_unknown/revoke", key: "sk_support")
            #expect(unknown.status == .notFound)

            let timeline = try await client.send(.get, "/admin/v1/subscribers/alice/timeline", key: "sk_read_only").decode(TimelineResponse.self)
            let grantEntries = timeline.entries.filter { $0.grant != nil }
            #expect(grantEntries.map(\.kind) == ["entitlementGranted", "grantRevoked"])
            #expect(grantEntries.map { $0.requestedBy?.action } == ["grant", "revokeGrant"])
            #expect(grantEntries.last?.requestedBy?.reason == "partnership ended" && grantEntries.last?.grant?.revokedBy == "desk")
        }
        let kinds = try await server.storage.pendingOutbox(limit: 20).map(\.event.kind)
        #expect(kinds.filter { $0.hasPrefix("grant") || $0 == "entitlementGranted" } == ["entitlementGranted", "grantRevoked"])
    }
}
