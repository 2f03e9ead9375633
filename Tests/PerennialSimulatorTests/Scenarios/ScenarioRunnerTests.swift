import Foundation
import PerennialAppStore
import PerennialCore
import PerennialSimulator
import Testing

/// The runner's failures name the step; the context resolves steps as the actions route needs.
@Suite struct ScenarioRunnerTests {
    static let monthly = "com.example.perennial.premium.monthly"

    static func json(_ steps: String) -> String {
        """
        {"store": {"catalog": "../catalog.json", "seed": 3}, "accounts": [{"id": "alice"}], "steps": \(steps)}
        """
    }

    @Test func falseExpectationNamesTheStepAndTheDifference() async throws {
        let steps = """
            [{"purchase": {"product": "\(Self.monthly)", "account": "alice", "as": "sub"}},
             {"expect": {"notifications": ["SUBSCRIBED/INITIAL_BUY"]}},
             {"advance": {"periods": 1, "of": "sub"}},
             {"expect": {"notifications": ["DID_RENEW", "DID_RENEW"], "status": {"sub": "expired"}}}]
            """
        let failure = await #expect(throws: ScenarioFailure.self) { try await ScenarioFiles.run(json: Self.json(steps)) }
        let error = try #require(failure)
        #expect(error.step == 3)
        #expect(error.key == "expect")
        guard case .expectation(let mismatches) = error.reason else { Issue.record("\(error)"); return }
        #expect(mismatches == [
            .notifications(expected: ["DID_RENEW", "DID_RENEW"], actual: ["DID_RENEW"]),
            .status(alias: "sub", expected: .expired, actual: .active),
        ])
        #expect(error.timeline.entries.count == 4)
        #expect(error.description.hasPrefix("step 3 (expect) is false: expected notifications [DID_RENEW, DID_RENEW], got [DID_RENEW]"))
    }

    @Test func unknownAliasAndRefusedActionsNameTheStep() async throws {
        let unknown = await #expect(throws: ScenarioFailure.self) {
            try await ScenarioFiles.run(json: Self.json("[{\"advance\": {\"seconds\": 5}}, {\"recoverBilling\": {\"of\": \"ghost\"}}]"))
        }
        #expect(unknown?.step == 1)
        #expect(unknown?.description == "step 1 (recoverBilling) failed: no subscription is named \"ghost\" (give it with \"as\" in an earlier step)")

        let refused = await #expect(throws: ScenarioFailure.self) {
            try await ScenarioFiles.run(json: Self.json("""
                [{"purchase": {"product": "\(Self.monthly)", "account": "alice", "as": "sub"}}, {"recoverBilling": {"of": "sub"}}]
                """))
        }
        #expect(refused?.step == 1)
        guard case .step(.simulator(.lifecycle(.notInBillingFailure)))? = refused?.reason else {
            Issue.record("\(String(describing: refused))")
            return
        }

        let noAccount = await #expect(throws: ScenarioFailure.self) {
            try await ScenarioFiles.run(json: Self.json("[{\"purchase\": {\"product\": \"\(Self.monthly)\", \"account\": \"zoe\"}}]"))
        }
        #expect(noAccount?.description == "step 0 (purchase) failed: account \"zoe\" is not declared in the scenario's accounts")
    }

    @Test func advancingAnExpiredSubscriptionByPeriodsIsRefused() async throws {
        let failure = await #expect(throws: ScenarioFailure.self) {
            try await ScenarioFiles.run(json: Self.json("""
                [{"purchase": {"product": "\(Self.monthly)", "account": "alice", "as": "sub"}},
                 {"refund": {"of": "sub"}},
                 {"advance": {"periods": 1, "of": "sub"}}]
                """))
        }
        guard case .step(.resolution(.nothingScheduled(alias: "sub")))? = failure?.reason else {
            Issue.record("\(String(describing: failure))")
            return
        }
    }

    @Test func actionsRouteResolvesStepsWithIDsOrAliases() async throws {
        let scenario = try Scenario.decode(json: Data(Self.json("[{\"advance\": {\"seconds\": 1}}]").utf8))
        let backend = try ScenarioFiles.backend(for: scenario)
        var context = ScenarioContext(accounts: [SandboxAccount(id: "alice")])
        let bought = try await context.perform(
            try ScenarioStep.decode(json: Data("{\"purchase\": {\"product\": \"\(Self.monthly)\", \"account\": \"alice\", \"as\": \"sub\"}}".utf8)),
            on: backend)
        let id = try #require(bought?.output.transactions.first?.originalTransactionID)
        #expect(context.aliases == ["sub": id])

        // A real original transaction id works where an alias is expected.
        let state = await backend.currentState()
        #expect(try context.resolve(.setAutoRenew(subscription: id, enabled: false), state: state)
            == .perform(.setAutoRenew(originalTransactionID: id, enabled: false)))
        #expect(try context.resolve(.advance(.periods(2, of: "sub")), state: state) == .advance(to: ScenarioStore.defaultStart.addingTimeInterval(600)))
        #expect(try context.resolve(.advance(.days(2, scaled: false)), state: state) == .advance(to: ScenarioStore.defaultStart.addingTimeInterval(172_800)))
        #expect(try context.resolve(.advance(.days(3, scaled: true)), state: state) == .advance(to: ScenarioStore.defaultStart.addingTimeInterval(30)))
        #expect(throws: ScenarioError.duplicateAlias("sub")) {
            try context.resolve(.purchase(ScenarioPurchase(productID: Self.monthly, account: "alice", alias: "sub")), state: state)
        }

        let renewed = try await context.perform(.advance(.periods(1, of: "sub")), on: backend)
        #expect(renewed?.notifications.map(\.intent.type) == [.didRenew])
        #expect(try await context.perform(.faults(DeliveryFaults(reorder: true)), on: backend) == nil)
        #expect(await backend.faults.reorder)
    }

    @Test func timelineRendersOneLinePerNotificationAndAttempt() async throws {
        let timeline = try await ScenarioFiles.run(json: Self.json("""
            [{"purchase": {"product": "\(Self.monthly)", "account": "alice", "as": "sub"}},
             {"advance": {"seconds": 10}}]
            """))
        let uuid = PayloadEncoder.notificationUUID(seed: 3, ordinal: 0).uuidString.lowercased()
        #expect(ScenarioTimelineRenderer.render(timeline) == """
            [0] purchase               2026-01-01T00:00:00.000Z
                notify  SUBSCRIBED/INITIAL_BUY  sub  tx 2000000000000001  uuid \(uuid)
                deliver v2 SUBSCRIBED/INITIAL_BUY  attempt 1  2026-01-01T00:00:00.000Z  200  uuid \(uuid)
                deliver v1 SUBSCRIBED/INITIAL_BUY  attempt 1  2026-01-01T00:00:00.000Z  200  uuid \(uuid)
            [1] advance                2026-01-01T00:00:10.000Z

            """)
    }
}
