import Foundation
import PerennialAppStore
import PerennialCore
import PerennialSimulator
import Testing

/// Get Notification History, Request a Test Notification and Get Test Notification Status.
@Suite struct ServerAPINotificationHistoryTests {
    static func body(
        start: Date = SimulatorFixture.start, end: Date = SimulatorFixture.at(1_000_000), type: String? = nil, subtype: String? = nil,
        transactionID: String? = nil, onlyFailures: Bool? = nil
    ) -> String {
        var fields = ["\"startDate\": \(Int64(start.timeIntervalSince1970 * 1000))", "\"endDate\": \(Int64(end.timeIntervalSince1970 * 1000))"]
        if let type { fields.append("\"notificationType\": \"\(type)\"") }
        if let subtype { fields.append("\"notificationSubtype\": \"\(subtype)\"") }
        if let transactionID { fields.append("\"transactionId\": \"\(transactionID)\"") }
        if let onlyFailures { fields.append("\"onlyFailures\": \(onlyFailures)") }
        return "{" + fields.joined(separator: ", ") + "}"
    }

    /// Walks every page of a notification history request and returns the decoded payloads.
    static func walk(_ harness: ServerAPIHarness, body: String) async throws -> [(ResponseBodyV2DecodedPayload, [SendAttemptItem])] {
        let pages = try await harness.client().allPages(
            .notificationHistory(body: ServerAPIRequestBody(json: Data(body.utf8))), as: NotificationHistoryResponse.self)
        let verifier = try ServerAPIHarness.verifier()
        var items: [(ResponseBodyV2DecodedPayload, [SendAttemptItem])] = []
        for item in pages.flatMap({ $0.notificationHistory ?? [] }) {
            let verified = try await verifier.verifyNotification(try #require(item.signedPayload))
            items.append((verified.payload, item.sendAttempts ?? []))
        }
        return items
    }

    @Test func historyPagesThroughEveryNotificationOnce() async throws {
        let harness = try ServerAPIHarness(renewalLimit: 40)
        let pro = try await harness.buy("pro.monthly")
        _ = try await harness.buy("pro.monthly", account: ServerAPIHarness.bob)
        try await harness.advance(toSecond: 12 * 300)
        let all = await harness.backend.notificationHistory()
        #expect(all.count == 26)

        let items = try await Self.walk(harness, body: Self.body())
        #expect(items.map { $0.0.notificationUUID } == all.map { $0.notification.payload.notificationUUID })
        #expect(items.allSatisfy { $0.1.map(\.sendAttemptResult) == [.success] })

        let renewals = try await Self.walk(harness, body: Self.body(type: "DID_RENEW"))
        #expect(renewals.count == 24)
        let alice = try await Self.walk(harness, body: Self.body(transactionID: pro))
        #expect(alice.count == 13)
        let windowed = try await Self.walk(harness, body: Self.body(start: SimulatorFixture.at(300), end: SimulatorFixture.at(900)))
        #expect(windowed.count == 4)
    }

    @Test func onlyFailuresAndAttemptResults() async throws {
        let harness = try ServerAPIHarness()
        _ = try await harness.buy("pro.monthly")
        try await harness.advance(toSecond: 600)
        let records = await harness.backend.notificationHistory()
        let uuids = records.compactMap { $0.notification.payload.notificationUUID }
        #expect(uuids.count == 3)
        await harness.backend.rewriteAttempts(
            notificationUUID: uuids[1], outcomes: [.failed(reason: "request timed out"), .answered(status: 500), .answered(status: 200)])
        await harness.backend.rewriteAttempts(notificationUUID: uuids[2], outcomes: [.failed(reason: "connection refused"), .dropped])

        let all = try await Self.walk(harness, body: Self.body())
        #expect(all[1].1.map(\.sendAttemptResult) == [.timedOut, .unsuccessfulHTTPResponseCode, .success])
        #expect(all[1].1.map(\.attemptDate) == [SimulatorFixture.at(300), SimulatorFixture.at(3_900), SimulatorFixture.at(7_500)])
        #expect(all[2].1.map(\.sendAttemptResult) == [.noResponse, .noResponse])
        let failures = try await Self.walk(harness, body: Self.body(onlyFailures: true))
        #expect(failures.map { $0.0.notificationUUID } == [uuids[2]])
    }

    @Test(arguments: [
        ("{\"endDate\": 1700000100000}", 4_000_015),
        ("{\"startDate\": 1700000000000}", 4_000_016),
        ("{\"startDate\": 1700000100000, \"endDate\": 1700000000000}", 4_000_013),
        ("{\"startDate\": 1600000000000, \"endDate\": 1700000000000}", 4_000_012),
        ("{\"startDate\": 1700000000000, \"endDate\": 1700000100000, \"notificationType\": \"DID_RENEW\", \"transactionId\": \"2000000000000001\"}", 4_000_019),
        ("{\"startDate\": 1700000000000, \"endDate\": 1700000100000, \"notificationSubtype\": \"UPGRADE\"}", 4_000_018),
        ("{\"startDate\": 1700000000000, \"endDate\": 1700000100000, \"transactionId\": \"x\"}", 4_000_006),
        ("not json", 4_000_000),
    ])
    func invalidRequestsGetApplesCodes(body: String, code: Int) async throws {
        let harness = try ServerAPIHarness()
        _ = try await harness.buy("pro.monthly")
        let response = try await harness.call("POST", "/inApps/v1/notifications/history", json: body)
        #expect(response.status == 400)
        #expect(try response.errorCode() == code)
    }

    @Test func invalidPaginationToken() async throws {
        let harness = try ServerAPIHarness()
        _ = try await harness.buy("pro.monthly")
        let response = try await harness.call(
            "POST", "/inApps/v1/notifications/history", query: [.init(name: "paginationToken", value: "bogus")], json: Self.body())
        #expect(try response.errorCode() == 4_000_014)
    }

    @Test func testNotificationRoundTrip() async throws {
        let harness = try ServerAPIHarness()
        let requested = try await harness.call("POST", "/inApps/v1/notifications/test")
        #expect(requested.status == 200)
        let token = try #require(try requested.decode(SendTestNotificationResponse.self).testNotificationToken)

        let status = try await harness.call("GET", "/inApps/v1/notifications/test/\(token)").decode(CheckTestNotificationResponse.self)
        let verified = try await ServerAPIHarness.verifier().verifyNotification(try #require(status.signedPayload))
        #expect(verified.payload.notificationType == .test)
        #expect(verified.payload.notificationUUID == token)
        #expect(status.sendAttempts?.map(\.sendAttemptResult) == [.success])

        let unknown = try await harness.call("GET", "/inApps/v1/notifications/test/\(UUID().uuidString.lowercased())")
        #expect(unknown.status == 404)
        #expect(try unknown.errorCode() == 4_040_008)
        let malformed = try await harness.call("GET", "/inApps/v1/notifications/test/not-a-token")
        #expect(try malformed.errorCode() == 4_000_020)
    }
}
