import Foundation
import PerennialAppStore
import PerennialCore
import PerennialSimulator
import Testing

/// Extend a Subscription Renewal Date, Send Consumption Information and Set App Account Token.
@Suite struct ServerAPIDeveloperTests {
    static func extendBody(days: Int = 30, reason: Int = 1, requestIdentifier: String? = "req-1") -> String {
        var fields = ["\"extendByDays\": \(days)", "\"extendReasonCode\": \(reason)"]
        if let requestIdentifier { fields.append("\"requestIdentifier\": \"\(requestIdentifier)\"") }
        return "{" + fields.joined(separator: ", ") + "}"
    }

    @Test func extensionMovesTheRenewalDateAndNotifies() async throws {
        let harness = try ServerAPIHarness()
        let pro = try await harness.buy("pro.monthly")
        let response = try await harness.call("PUT", "/inApps/v1/subscriptions/extend/\(pro)", json: Self.extendBody(days: 30))
        #expect(response.status == 200)
        let answer = try response.decode(ExtendRenewalDateResponse.self)
        #expect(answer.success == true)
        #expect(answer.originalTransactionId == pro)
        #expect(answer.webOrderLineItemId == "2000000050000001")
        // 30 days at the default sandbox rate are one 300-second month.
        #expect(answer.effectiveDate == SimulatorFixture.at(600))
        let last = try #require(await harness.backend.notificationHistory().last)
        #expect(last.notification.payload.notificationType == .renewalExtended)
        let expires = await harness.backend.currentState().lifecycle(originalTransactionID: pro)?.latestTransaction.expiresDate
        #expect(expires == SimulatorFixture.at(600))
    }

    @Test(arguments: [
        (extendBody(days: 0), 400, 4_000_009), (extendBody(days: 91), 400, 4_000_009), (extendBody(reason: 4), 400, 4_000_010),
        (extendBody(requestIdentifier: nil), 400, 4_000_011), (extendBody(requestIdentifier: ""), 400, 4_000_011),
        ("[]", 400, 4_000_000),
    ])
    func invalidExtensionBodies(body: String, status: Int, code: Int) async throws {
        let harness = try ServerAPIHarness()
        let pro = try await harness.buy("pro.monthly")
        let response = try await harness.call("PUT", "/inApps/v1/subscriptions/extend/\(pro)", json: body)
        #expect(response.status == status)
        #expect(try response.errorCode() == code)
    }

    @Test func extensionEligibility() async throws {
        let harness = try ServerAPIHarness()
        let pro = try await harness.buy("pro.monthly")
        let unknown = try await harness.call("PUT", "/inApps/v1/subscriptions/extend/999", json: Self.extendBody())
        #expect(unknown.status == 404)
        #expect(try unknown.errorCode() == 4_040_005)
        let invalid = try await harness.call("PUT", "/inApps/v1/subscriptions/extend/abc", json: Self.extendBody())
        #expect(try invalid.errorCode() == 4_000_008)

        let shared = try await harness.perform(.familyShare(originalTransactionID: pro, member: ServerAPIHarness.bob))
        let family = try await harness.call("PUT", "/inApps/v1/subscriptions/extend/\(shared)", json: Self.extendBody())
        #expect(family.status == 403)
        #expect(try family.errorCode() == 4_030_007)

        for expected in [200, 200, 403] {
            let response = try await harness.call("PUT", "/inApps/v1/subscriptions/extend/\(pro)", json: Self.extendBody(days: 1))
            #expect(response.status == expected)
            if expected == 403 { #expect(try response.errorCode() == 4_030_005) }
        }

        try await harness.perform(.setAutoRenew(originalTransactionID: pro, enabled: false))
        try await harness.advance(toSecond: 10_000)
        let expired = try await harness.call("PUT", "/inApps/v1/subscriptions/extend/\(pro)", json: Self.extendBody())
        #expect(expired.status == 403)
        #expect(try expired.errorCode() == 4_030_004)
    }

    static let consumption = """
        {"customerConsented": true, "deliveryStatus": "DELIVERED", "sampleContentProvided": false, "consumptionPercentage": 25000, "refundPreference": "DECLINE"}
        """
    static let consumptionV1 = """
        {"customerConsented": true, "consumptionStatus": 2, "platform": 1, "sampleContentProvided": false, "deliveryStatus": 0,
         "appAccountToken": "", "accountTenure": 3, "playTime": 4, "lifetimeDollarsRefunded": 0, "lifetimeDollarsPurchased": 2,
         "userStatus": 1, "refundPreference": 1}
        """

    @Test func consumptionIsAcceptedWith202() async throws {
        let harness = try ServerAPIHarness()
        let pro = try await harness.buy("pro.monthly")
        let v2 = try await harness.call("PUT", "/inApps/v2/transactions/consumption/\(pro)", json: Self.consumption)
        #expect(v2.status == 202)
        #expect(v2.body.isEmpty)
        let v1 = try await harness.call("PUT", "/inApps/v1/transactions/consumption/\(pro)", json: Self.consumptionV1)
        #expect(v1.status == 202)
    }

    @Test(arguments: [
        ("v2", "customerConsented\": true", "customerConsented\": false", 4_000_035),
        ("v2", "\"DELIVERED\"", "\"LOST\"", 4_000_036),
        ("v2", ", \"sampleContentProvided\": false", "", 4_000_041),
        ("v2", "25000", "250000", 4_000_000),
        ("v1", "\"platform\": 1", "\"platform\": 5", 4_000_039),
        ("v1", "\"consumptionStatus\": 2", "\"consumptionStatus\": 4", 4_000_034),
        ("v1", "\"appAccountToken\": \"\", ", "", 4_000_033),
        ("v1", "\"appAccountToken\": \"\"", "\"appAccountToken\": \"xyz\"", 4_000_033),
        ("v1", "\"userStatus\": 1", "\"userStatus\": 9", 4_000_042),
        ("v1", "\"accountTenure\": 3", "\"accountTenure\": 8", 4_000_032),
    ])
    func invalidConsumptionFields(version: String, replacing: String, with: String, code: Int) async throws {
        let harness = try ServerAPIHarness()
        let pro = try await harness.buy("pro.monthly")
        let template = version == "v2" ? Self.consumption : Self.consumptionV1
        let body = template.replacingOccurrences(of: replacing, with: with)
        #expect(body != template)
        let response = try await harness.call("PUT", "/inApps/\(version)/transactions/consumption/\(pro)", json: body)
        #expect(response.status == 400)
        #expect(try response.errorCode() == code)
    }

    @Test func consumptionOfANonConsumableIsRefused() async throws {
        let harness = try ServerAPIHarness()
        let lifetime = try await harness.buy("lifetime")
        let response = try await harness.call("PUT", "/inApps/v2/transactions/consumption/\(lifetime)", json: Self.consumption)
        #expect(try response.errorCode() == 4_000_043)
        let unknown = try await harness.call("PUT", "/inApps/v2/transactions/consumption/999", json: Self.consumption)
        #expect(try unknown.errorCode() == 4_040_010)
    }

    @Test func appAccountTokenIsCarriedByLaterAnswers() async throws {
        let harness = try ServerAPIHarness()
        let pro = try await harness.buy("pro.monthly")
        let token = UUID()
        let response = try await harness.call(
            "PUT", "/inApps/v1/transactions/\(pro)/appAccountToken", json: "{\"appAccountToken\": \"\(token.uuidString)\"}")
        #expect(response.status == 200)
        #expect(await harness.backend.notificationHistory().count == 1, "Apple notifies nothing for a token change")

        let verifier = try ServerAPIHarness.verifier()
        let info = try await harness.call("GET", "/inApps/v1/transactions/\(pro)").decode(TransactionInfoResponse.self)
        #expect(try await verifier.verifyTransaction(try #require(info.signedTransactionInfo)).appAccountToken == token)

        try await harness.advance(toSecond: 300)
        let statuses = try await harness.call("GET", "/inApps/v1/subscriptions/\(pro)").decode(StatusResponse.self)
        let item = try #require(statuses.data?.first?.lastTransactions?.first)
        let renewal = try await verifier.verifyTransaction(try #require(item.signedTransactionInfo))
        #expect(renewal.transactionReason == .renewal)
        #expect(renewal.appAccountToken == token)
        #expect(try await verifier.verifyRenewalInfo(try #require(item.signedRenewalInfo)).appAccountToken == token)
        let renewed = try #require(await harness.backend.notificationHistory().last)
        let notified = try await verifier.verifyNotification(try #require(renewed.notification.body.signedPayload))
        #expect(notified.transaction?.appAccountToken == token)
    }

    @Test func appAccountTokenErrors() async throws {
        let harness = try ServerAPIHarness()
        let pro = try await harness.buy("pro.monthly")
        try await harness.advance(toSecond: 300)
        let renewal = try #require(await harness.backend.currentState().lifecycle(originalTransactionID: pro)?.latestTransaction.transactionID)
        let shared = try await harness.perform(.familyShare(originalTransactionID: pro, member: ServerAPIHarness.bob))
        let valid = "{\"appAccountToken\": \"\(UUID().uuidString)\"}"
        let cases: [(String, String, Int, Int)] = [
            (pro, "{\"appAccountToken\": \"not-a-uuid\"}", 400, 4_000_183),
            (renewal, valid, 400, 4_000_187),
            (shared, valid, 400, 4_000_185),
            ("999", valid, 404, 4_040_010),
            ("abc", valid, 400, 4_000_006),
        ]
        for (id, body, status, code) in cases {
            let response = try await harness.call("PUT", "/inApps/v1/transactions/\(id)/appAccountToken", json: body)
            #expect(response.status == status, "\(id) \(body)")
            #expect(try response.errorCode() == code, "\(id) \(body)")
        }
    }

    @Test func setAppAccountTokenActionRewritesEveryTransactionSilently() async throws {
        let harness = try ServerAPIHarness()
        let pro = try await harness.buy("pro.monthly")
        try await harness.advance(toSecond: 300)
        let token = UUID()
        let step = try await harness.backend.perform(.setAppAccountToken(originalTransactionID: pro, appAccountToken: token))
        #expect(step.notifications.isEmpty)
        #expect(step.output.transactions.count == 2)
        #expect(step.output.transactions.allSatisfy { $0.appAccountToken == token })
        #expect(step.output.renewalInfos.map(\.appAccountToken) == [token])

        let shared = try await harness.perform(.familyShare(originalTransactionID: pro, member: ServerAPIHarness.bob))
        let refused = await #expect(throws: SimulatorRuntimeError.self) {
            try await harness.backend.perform(.setAppAccountToken(originalTransactionID: shared, appAccountToken: token))
        }
        guard case .lifecycle(.familySharedAccountToken(shared))? = refused else {
            Issue.record("\(String(describing: refused))")
            return
        }
        let sharedToken = await harness.backend.currentState().lifecycle(originalTransactionID: shared)?.appAccountToken
        #expect(sharedToken == nil)
    }
}
