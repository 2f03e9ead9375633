import Foundation
import PerennialAppStore
import PerennialCore
import PerennialSimulator
import Testing

@Suite struct VerifyReceiptResponderTests {
    @Test func validReceiptNormalizesToTheStoresTransactions() async throws {
        let state = try ReceiptScenario.renewedStore(withLifetime: true)
        let reply = try await ReceiptScenario.post(try ReceiptScenario.deviceReceipt(state), state: state)
        // Through the wire format, as a server would read it.
        let body = try JSONEncoder().encode(try #require(reply.response))
        let response = try JSONDecoder().decode(VerifyReceiptResponse.self, from: body)

        #expect(response.status == .valid)
        #expect(response.environment == .sandbox)
        #expect(response.receipt?.bundle_id == ReceiptScenario.bundleID)
        #expect(response.receipt?.request_date_ms == state.now)
        #expect(Set(response.receipt?.in_app?.compactMap(\.transaction_id) ?? []) == ReceiptScenario.transactionIDs(state))
        #expect(response.latest_receipt_info?.elements.count == 3)
        let subscription = try #require(state.lifecycles.first)
        #expect(response.pending_renewal_info?.map(\.original_transaction_id) == [subscription.originalTransactionID])

        let records = try response.evidenceRecords(answeredAt: state.now)
        #expect(Set(records.transactions.map(\.transactionID)) == ReceiptScenario.transactionIDs(state))
        #expect(records.renewalInfos.map(\.originalTransactionID) == [subscription.originalTransactionID])

        // latest_receipt is itself a receipt the simulator's root verifies.
        let latest = try #require(response.latest_receipt)
        let verified = try await AppReceiptVerifier(trustedRoots: [try ReceiptScenario.authority().root]).verify(bytes: Data(latest.utf8))
        #expect(Set(verified.receipt.inAppPurchases.compactMap(\.transactionID)) == ReceiptScenario.transactionIDs(state))
    }

    @Test func excludeOldTransactionsKeepsTheLatestRowPerSubscription() async throws {
        let state = try ReceiptScenario.renewedStore(withLifetime: true)
        let reply = try await ReceiptScenario.post(try ReceiptScenario.deviceReceipt(state), excludeOld: true, state: state)
        let rows = try #require(reply.response?.latest_receipt_info?.elements)
        #expect(rows.compactMap(\.transaction_id) == state.lifecycles.map(\.latestTransaction.transactionID))
        #expect(Set(rows.compactMap(\.original_transaction_id)).count == rows.count)
    }

    @Test(arguments: [nil, "wrong"] as [String?])
    func wrongOrMissingSharedSecretIs21004(_ password: String?) async throws {
        let state = try ReceiptScenario.renewedStore()
        let reply = try await ReceiptScenario.post(try ReceiptScenario.deviceReceipt(state), password: password, state: state)
        #expect(reply.response?.status == .sharedSecretMismatch)
        #expect(reply.response?.latest_receipt == nil)
    }

    @Test func receiptWithoutAutoRenewablesNeedsNoSecretAndGetsNoLatestReceipt() async throws {
        let state = try ReceiptScenario.lifetimeOnlyStore()
        let reply = try await ReceiptScenario.post(try ReceiptScenario.deviceReceipt(state), password: nil, state: state)
        let response = try #require(reply.response)
        #expect(response.status == .valid)
        #expect(response.receipt?.in_app?.map(\.product_id) == ["lifetime"])
        #expect(response.latest_receipt == nil)
        #expect(response.latest_receipt_info == nil)
    }

    @Test func sandboxReceiptOnProductionIs21007() async throws {
        let state = try ReceiptScenario.renewedStore(environment: .sandbox)
        let reply = try await ReceiptScenario.post(try ReceiptScenario.deviceReceipt(state), state: state, environment: .production)
        #expect(reply.response?.status == .sandboxReceiptOnProduction)
        #expect(reply.response?.status.redirectEnvironment == .sandbox)
    }

    @Test func productionReceiptOnSandboxIs21008() async throws {
        let state = try ReceiptScenario.renewedStore(environment: .production)
        let receipt = try ReceiptScenario.deviceReceipt(state)
        let onSandbox = try await ReceiptScenario.post(receipt, state: state, environment: .sandbox)
        #expect(onSandbox.response?.status == .productionReceiptOnSandbox)
        let onProduction = try await ReceiptScenario.post(receipt, state: state, environment: .production)
        #expect(onProduction.response?.status == .valid)
        #expect(onProduction.response?.environment == .production)
    }

    @Test(arguments: ["not a receipt", Data("random bytes that are no PKCS#7 receipt".utf8).base64EncodedString(), ""])
    func garbageIs21002(_ receiptData: String) async throws {
        let state = try ReceiptScenario.renewedStore()
        let reply = try await ReceiptScenario.post(receiptData, state: state)
        #expect(reply.response?.status == .malformedOrTemporaryIssue)
    }

    @Test func receiptSignedByAnotherAuthorityIs21003() async throws {
        let state = try ReceiptScenario.renewedStore()
        let content = DeviceReceipt.content(
            account: SimulatorFixture.tester, bundleID: ReceiptScenario.bundleID, state: state, configuration: ReceiptScenario.app)
        let forged = try ReceiptScenario.foreignAuthority.get().sign(content).base64EncodedString()
        let reply = try await ReceiptScenario.post(forged, state: state)
        #expect(reply.response?.status == .notAuthenticated)
        #expect(reply.response?.receipt == nil)
    }

    @Test func pkiWithoutReceiptAuthorityIsASimulatorFault() async throws {
        let state = try ReceiptScenario.renewedStore()
        let responder = VerifyReceiptResponder(configuration: .init(environment: .sandbox, app: ReceiptScenario.app))
        let request = VerifyReceiptRequest(receipt_data: try ReceiptScenario.deviceReceipt(state), password: "s3cret")
        await #expect(throws: SimulatorWireError.noReceiptAuthority) {
            try await responder.respond(to: request, state: state, pki: WirePKI.get())
        }
    }

    struct InjectedCase: CustomStringConvertible, Sendable {
        let failure: InjectedVerifyReceiptFailure
        let status: Int?
        let retryable: Bool
        let exception: String?

        var description: String { "\(failure)" }
    }

    static let injectedCases: [InjectedCase] = [
        InjectedCase(failure: .status(21005), status: 21005, retryable: true, exception: nil),
        InjectedCase(failure: .status(21009), status: 21009, retryable: true, exception: "MZInAppCacheAccessException"),
        InjectedCase(
            failure: .internalError(21104, retryable: true), status: 21104, retryable: true, exception: "MZInAppLockerAccessException"),
        InjectedCase(
            failure: .internalError(21150, retryable: false), status: 21150, retryable: false, exception: "MZInAppLockerAccessException"),
        InjectedCase(failure: .serviceUnavailableHTML, status: nil, retryable: true, exception: nil),
    ]

    @Test(arguments: injectedCases)
    func injectedFailureReplacesTheAnswer(_ injected: InjectedCase) async throws {
        let state = try ReceiptScenario.renewedStore()
        let reply = try await ReceiptScenario.post(try ReceiptScenario.deviceReceipt(state), state: state, failure: injected.failure)
        guard let expectedStatus = injected.status else {
            guard case .http(let status, let body) = reply else {
                Issue.record("expected a bare HTTP answer, got \(reply)")
                return
            }
            #expect(status == 503)
            #expect(body.hasPrefix("<html>"))
            return
        }
        let body = try JSONEncoder().encode(try #require(reply.response))
        let response = try JSONDecoder().decode(VerifyReceiptResponse.self, from: body)
        #expect(response.status.rawValue == expectedStatus)
        #expect(response.environment == .sandbox)
        #expect(response.receipt == nil)
        #expect(response.status.isRetryable(retryableFlag: response.isRetryable) == injected.retryable)
        if let exception = injected.exception {
            #expect(response.exception?.hasSuffix(exception) == true)
        } else {
            #expect(response.exception == nil)
        }
    }
}
