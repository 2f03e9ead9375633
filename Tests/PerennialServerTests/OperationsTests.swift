import PerennialWire
import Foundation
import Hummingbird
import HummingbirdTesting
import PerennialServer
import PerennialSimulator
import PerennialStorage
import Testing

@Suite struct OperationsTests {
    @Test func healthIsLiveAndReadyWithADatabase() async throws {
        let server = try await ServerHarness()
        try await server.test { client in
            let live = try await client.send(.get, "/health/live", key: nil)
            #expect(live.status == .ok)
            let ready = try await client.send(.get, "/health/ready", key: nil)
            #expect(ready.status == .ok && ready.text.contains(#""status":"ok""#))
            // Probes that ask with HEAD get the status (it was a 404).
            #expect(try await client.send(.head, "/health/live", key: nil).status == .ok)
            #expect(try await client.send(.head, "/health/ready", key: nil).status == .ok)
        }
    }

    @Test func readinessFailsWhenTheDatabaseDoesNotAnswerAndNotificationsAskForARetry() async throws {
        var world = try StoreWorld()
        let notification = try #require(try world.buy("pro.monthly").notifications.first)
        let server = try await ServerHarness(storage: UnreachableStorage())
        server.clock.now = world.state.now
        try await server.test { client in
            #expect(try await client.send(.get, "/health/live", key: nil).status == .ok)
            let ready = try await client.send(.get, "/health/ready", key: nil)
            #expect(ready.status == .serviceUnavailable && ready.text.contains("connection refused"))
            #expect(try await client.send(.head, "/health/ready", key: nil).status == .serviceUnavailable)
            // The effect was not committed: Apple must retry.
            let response = try await client.notifyV2(try notification.v2Body())
            #expect(response.status == .serviceUnavailable && response.errorCode == "storageUnavailable")
        }
    }

    @Test func metricsShowRequestsNotificationsAndVerificationFailures() async throws {
        var world = try StoreWorld()
        let (transaction, notifications) = try world.buy("pro.monthly")
        let signed = try world.signed(transaction)
        let server = try await ServerHarness()
        server.clock.now = world.state.now
        let scraped = Box<String>()
        try await server.test { client in
            #expect(try await client.postTransaction(signed, user: "alice").status == .ok)
            #expect(try await client.notifyV2(try #require(notifications.first).v2Body()).status == .ok)
            #expect(try await client.postTransaction("forged", user: "alice").status == .unprocessableContent)
            let metrics = try await client.send(.get, "/metrics", key: nil)
            #expect(metrics.status == .ok)
            scraped.value = metrics.text
        }
        let text = try #require(scraped.value)
        #expect(text.contains(#"perennial_http_requests_total{route="/v1/subscribers/{appUserId}/transactions",method="POST",status="200"} 1"#))
        #expect(text.contains(#"perennial_http_requests_total{route="/v1/subscribers/{appUserId}/transactions",method="POST",status="422"} 1"#))
        #expect(text.contains("perennial_http_request_duration_seconds_bucket"))
        #expect(text.contains(#"perennial_notifications_total{version="v2",type="SUBSCRIBED",outcome="applied"} 1"#))
        #expect(text.contains(#"perennial_verification_failures_total{kind="signedTransaction",reason="invalidSignature"} 1"#))
        // One event (the initial purchase) waits in the outbox since the apply.
        #expect(text.contains("perennial_outbox_oldest_pending_seconds 0"))
    }

    @Test func adminRoutesNeedTheSecretKeyAndShowTheTimeline() async throws {
        var world = try StoreWorld()
        let signed = try world.signed(try world.buy("pro.monthly").transaction)
        let server = try await ServerHarness()
        server.clock.now = world.state.now
        try await server.test { client in
            #expect(try await client.postTransaction(signed, user: "alice").status == .ok)
            #expect(try await client.send(.get, "/admin/v1/subscribers/alice").status == .unauthorized)
            #expect(try await client.send(.get, "/admin/v1/subscribers/alice", key: nil).status == .unauthorized)
            let subscriber = try await client.send(.get, "/admin/v1/subscribers/alice", key: ServerHarness.adminKey)
            #expect(subscriber.status == .ok)
            #expect(try subscriber.decode(SubscriberResponse.self).subscriber.entitlements["pro"]?.isActive == true)
            let timeline = try await client.send(.get, "/admin/v1/subscribers/alice/timeline", key: ServerHarness.adminKey)
            let entries = try timeline.decode(TimelineResponse.self).entries
            #expect(entries.map(\.kind) == ["bound", "evidenceApplied"])
            #expect(entries.first?.evidence?.kind == "signedTransaction")
            #expect(entries.first?.evidence?.rawBase64 == Data(signed.utf8).base64EncodedString())
            let unknownApp = try await client.send(.get, "/admin/v1/subscribers/alice?app=nope", key: ServerHarness.adminKey)
            #expect(unknownApp.status == .notFound)
        }
    }
}
