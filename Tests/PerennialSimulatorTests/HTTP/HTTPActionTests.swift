import Foundation
import Hummingbird
import HummingbirdTesting
import PerennialSimulator
import Testing

/// `POST /simulator/v1/actions`: scenario steps one at a time, aliases kept between requests.
@Suite("Simulator actions over HTTP")
struct HTTPActionTests {
    @Test func stepsBindAliasesAcrossRequests() async throws {
        let simulator = try await RuntimeFixture.simulator()
        try await buildSimulatorApplication(simulator: simulator).test(.router) { client in
            let bought = try await HTTPTest.call(
                client, .post, "/simulator/v1/actions", json: #"{"purchase": {"product": "pro.monthly", "account": "alice", "as": "sub"}}"#)
            #expect(bought.status == 200)
            let notifications = try #require(bought.json["notifications"] as? [[String: Any]])
            #expect(notifications.map { $0["notificationType"] as? String } == ["SUBSCRIBED"])

            let off = try await HTTPTest.call(client, .post, "/simulator/v1/actions", json: #"{"setAutoRenew": {"of": "sub", "enabled": false}}"#)
            #expect((off.json["notifications"] as? [[String: Any]])?.first?["subtype"] as? String == "AUTO_RENEW_DISABLED")

            let unknown = try await HTTPTest.call(client, .post, "/simulator/v1/actions", json: #"{"setAutoRenew": {"of": "nope", "enabled": true}}"#)
            #expect(unknown.status == 400)
            #expect(unknown.json["error"] as? String == "unresolvedStep")
            let malformed = try await HTTPTest.call(client, .post, "/simulator/v1/actions", json: #"{"fly": {}}"#)
            #expect(malformed.status == 400)
            #expect(malformed.json["error"] as? String == "invalidStep")
            // Unchecked, an expectation answered 200 whatever it said.
            let expectation = try await HTTPTest.call(client, .post, "/simulator/v1/actions", json: #"{"expect": {"status": {"sub": "revoked"}}}"#)
            #expect(expectation.status == 400 && (expectation.json["message"] as? String)?.contains("simulator run") == true)
            let refused = try await HTTPTest.call(client, .post, "/simulator/v1/actions", json: #"{"setAutoRenew": {"of": "sub", "enabled": false}}"#)
            #expect(refused.status == 409)
        }
    }
}
