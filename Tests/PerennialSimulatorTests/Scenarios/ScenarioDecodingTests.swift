import Foundation
import PerennialAppStore
import PerennialCore
import PerennialSimulator
import Testing

/// Scenario files that cannot be read say which step, which key and why.
@Suite struct ScenarioDecodingTests {
    static func scenario(steps: String, store: String = "{}", accounts: String = "[{\"id\": \"alice\"}]") -> Data {
        Data("{\"store\": \(store), \"accounts\": \(accounts), \"steps\": \(steps)}".utf8)
    }

    @Test(arguments: [
        ("[{\"advance\": {\"seconds\": 1}}, 42]", ScenarioDecodingError.stepNotAnObject(step: 1)),
        ("[{\"purchase\": {\"product\": \"p\", \"account\": \"alice\"}, \"advance\": {\"seconds\": 1}}]",
         .stepKeyCount(step: 0, keys: ["advance", "purchase"])),
        ("[{}]", .stepKeyCount(step: 0, keys: [])),
        ("[{\"advance\": {\"seconds\": 1}}, {\"teleport\": {}}]", .unknownStep(step: 1, key: "teleport")),
        ("[{\"purchase\": {\"account\": \"alice\"}}]", .invalidStep(step: 0, key: "purchase", reason: "\"product\" is required")),
        ("[{\"advance\": {\"periods\": 2, \"days\": 1}}]",
         .invalidStep(step: 0, key: "advance", reason: "give exactly one of \"periods\", \"days\", \"seconds\" or \"to\"")),
        ("[{\"advance\": {\"periods\": 2}}]", .invalidStep(step: 0, key: "advance", reason: "\"of\" is required")),
        ("[{\"setAutoRenew\": {\"of\": \"sub\", \"enabled\": \"no\"}}]",
         .invalidStep(step: 0, key: "setAutoRenew", reason: "\"enabled\" must be true or false")),
        ("[{\"refund\": {\"of\": \"sub\", \"amount\": \"half\"}}]",
         .invalidStep(step: 0, key: "refund", reason: "\"amount\" must be \"full\" or \"prorated\", not \"half\"")),
        ("[{\"expect\": {\"status\": {\"sub\": \"alive\"}}}]",
         .invalidStep(step: 0, key: "expect", reason: "the status of \"sub\" must be active, inGracePeriod, inBillingRetry, expired or revoked")),
        ("[{\"expect\": {}}]", .invalidStep(step: 0, key: "expect", reason: "an expectation needs \"notifications\" or \"status\"")),
        ("[{\"faults\": {\"explode\": true}}]",
         .invalidStep(step: 0, key: "faults", reason: "\"explode\" is not a delivery fault (delay, dropNext, dropProbability, duplicateProbability, reorder)")),
        ("[{\"setAppAccountToken\": {\"of\": \"sub\", \"appAccountToken\": \"nope\"}}]",
         .invalidStep(step: 0, key: "setAppAccountToken", reason: "\"appAccountToken\" must be a UUID, not \"nope\"")),
        ("[]", .invalidField(path: "steps", reason: "a non-empty list of steps is required")),
    ])
    func stepErrorsNameTheStep(steps: String, expected: ScenarioDecodingError) {
        #expect(throws: expected) { try Scenario.decode(json: Self.scenario(steps: steps)) }
    }

    @Test func storeAndAccountErrorsNameTheField() {
        let steps = "[{\"advance\": {\"seconds\": 1}}]"
        #expect(throws: ScenarioDecodingError.invalidField(
            path: "store.rate", reason: "\"weekly\" is not production, 1h, 30min, 15min, 5min, 3min or an Apple rate name")) {
            try Scenario.decode(json: Self.scenario(steps: steps, store: "{\"rate\": \"weekly\"}"))
        }
        #expect(throws: ScenarioDecodingError.invalidField(path: "store.colour", reason:
            "not a store field (appAppleId, billingRetryDays, bundleVersion, catalog, environment, gracePeriodDays, monthlyCommitments, prices, rate, renewalLimit, seed, start, winBackOffers)")) {
            try Scenario.decode(json: Self.scenario(steps: steps, store: "{\"colour\": \"red\"}"))
        }
        #expect(throws: ScenarioDecodingError.invalidField(path: "store.winBackOffers.pro", reason: "must be a list of offer ids")) {
            try Scenario.decode(json: Self.scenario(steps: steps, store: "{\"winBackOffers\": {\"pro\": [1]}}"))
        }
        let store = try? Scenario.decode(json: Self.scenario(steps: steps, store: "{\"winBackOffers\": {\"pro\": [\"back\"]}}")).store
        #expect(store?.winBackOfferIDs == ["pro": ["back"]])
        #expect(store?.configuration(catalog: SimulatorFixture.catalog).winBackOfferIDs == ["pro": ["back"]])
        #expect(throws: ScenarioDecodingError.invalidField(
            path: "accounts[0].renewal", reason: "must be \"renew\", \"failBilling\" or {\"failWithProbability\": p}")) {
            try Scenario.decode(json: Self.scenario(steps: steps, accounts: "[{\"id\": \"a\", \"renewal\": \"sometimes\"}]"))
        }
        #expect(throws: ScenarioDecodingError.self) { try Scenario.decode(json: Data("not json".utf8)) }
        #expect(throws: ScenarioDecodingError.invalidField(
            path: "accounts[0].appDownload.date", reason: "\"date\" must be an ISO 8601 instant like 2026-01-01T00:00:00Z, not \"yesterday\"")) {
            try Scenario.decode(
                json: Self.scenario(steps: steps, accounts: "[{\"id\": \"a\", \"appDownload\": {\"date\": \"yesterday\", \"version\": \"1.0\"}}]"))
        }
    }

    @Test func anAccountStatesItsAppDownload() throws {
        let scenario = try Scenario.decode(
            json: Self.scenario(
                steps: "[{\"advance\": {\"seconds\": 1}}]",
                accounts: "[{\"id\": \"carol\", \"appDownload\": {\"date\": \"2021-11-14T22:13:20Z\", \"version\": \"1.0\"}}, {\"id\": \"dave\"}]"))
        #expect(scenario.accounts[0].appDownload == AppDownload(date: Date(timeIntervalSince1970: 1_636_928_000), version: "1.0"))
        #expect(scenario.accounts[1].appDownload == nil)
    }

    @Test func everyFieldIsRead() throws {
        let scenario = try Scenario.decode(json: Self.scenario(
            steps: """
                [{"purchase": {"product": "p", "account": "alice", "appAccountToken": "7e3fb20b-4cdb-47cc-936d-99d65f608138",
                   "offer": {"type": "promotional", "id": "promo", "paymentMode": "payAsYouGo", "period": "P3M"}, "quantity": 2, "as": "sub"}},
                 {"advance": {"to": "2026-02-01T00:00:00.250Z"}},
                 {"advance": {"days": 3, "scaled": true}},
                 {"refund": {"of": "sub", "transaction": 2, "amount": "prorated", "reason": "developerIssue"}},
                 {"extendRenewalDate": {"of": "sub", "days": 10, "reason": 3}},
                 {"verifyReceiptFailure": {"status": 21100, "retryable": true}},
                 {"verifyReceiptFailure": {"http503": true}},
                 {"verifyReceiptFailure": null},
                 {"faults": {"dropNext": 2, "dropProbability": 0.5}},
                 {"expect": {"notifications": [], "status": {"sub": "inGracePeriod"}}}]
                """,
            store: """
                {"seed": 9, "rate": "MONTHLY_RENEWAL_EVERY_ONE_HOUR", "renewalLimit": 3, "gracePeriodDays": 3, "billingRetryDays": 30,
                 "environment": "Production", "start": "2026-01-15T10:00:00Z", "appAppleId": 77, "bundleVersion": "2.0",
                 "prices": {"p": {"milliUnits": 1990, "currency": "EUR"}}}
                """,
            accounts: "[{\"id\": \"alice\", \"storefront\": \"FRA\", \"renewal\": {\"failWithProbability\": 0.25}}]"))
        #expect(scenario.store.seed == 9)
        #expect(scenario.store.timeScale == .sandbox(.everyOneHour))
        #expect(scenario.store.environment == .production)
        #expect(scenario.store.start == Date(timeIntervalSince1970: 1_768_471_200))
        #expect(scenario.store.prices["p"]?.milliUnits == 1990)
        #expect(scenario.accounts == [SandboxAccount(id: "alice", storefront: "FRA", renewalBehavior: .failWithProbability(0.25))])
        #expect(scenario.steps[0] == .purchase(ScenarioPurchase(
            productID: "p", account: "alice", offer: Offer(type: .promotional, id: "promo", paymentMode: .payAsYouGo, period: "P3M"),
            appAccountToken: UUID(uuidString: "7e3fb20b-4cdb-47cc-936d-99d65f608138"), quantity: 2, alias: "sub")))
        #expect(scenario.steps[1] == .advance(.to(Date(timeIntervalSince1970: 1_769_904_000.25))))
        #expect(scenario.steps[2] == .advance(.days(3, scaled: true)))
        #expect(scenario.steps[3] == .refund(ScenarioTransactionReference(subscription: "sub", selector: .index(2)), amount: .prorated, reason: .developerIssue))
        #expect(scenario.steps[4] == .extendRenewalDate(subscription: "sub", days: 10, reason: .serviceIssueOrOutage))
        #expect(scenario.steps[5] == .verifyReceiptFailure(.internalError(VerifyReceiptStatus(rawValue: 21100), retryable: true)))
        #expect(scenario.steps[6] == .verifyReceiptFailure(.serviceUnavailableHTML))
        #expect(scenario.steps[7] == .verifyReceiptFailure(nil))
        #expect(scenario.steps[8] == .faults(DeliveryFaults(dropProbability: 0.5, dropNext: 2)))
        #expect(scenario.steps[9] == .expect(ScenarioExpectation(notifications: [], statuses: ["sub": .gracePeriod])))
    }

    @Test func oneStepDecodesForTheActionsRoute() throws {
        #expect(try ScenarioStep.decode(json: Data("{\"recoverBilling\": {\"of\": \"2000000000000001\"}}".utf8))
            == .recoverBilling(subscription: "2000000000000001"))
        #expect(throws: ScenarioDecodingError.unknownStep(step: 0, key: "fly")) {
            try ScenarioStep.decode(json: Data("{\"fly\": {}}".utf8))
        }
    }
}
