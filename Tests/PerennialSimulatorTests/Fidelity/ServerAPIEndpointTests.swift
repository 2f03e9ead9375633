import Crypto
import Foundation
import Hummingbird
import HummingbirdTesting
import PerennialAppStore
import PerennialCore
import PerennialSimulator
import Testing

/// The Server API endpoints the simulator used to miss, over HTTP with the production client:
/// each succeeds with Apple's shape and fails with Apple's error body and code.
@Suite("Simulator Server API: v1 history, mass extensions, app transactions, error bodies")
struct ServerAPIEndpointTests {
    /// A simulator where alice (USA) and bob (FRA) each hold an active subscription.
    static func world() async throws -> (AppStoreSimulator, alice: CompletedPurchase, bob: CompletedPurchase) {
        let simulator = try await FidelityWorld.simulator(transport: RecordingTransport())
        let alice = try await simulator.purchase(DevicePurchase(accountID: RuntimeFixture.alice, productID: "pro.monthly")).completed()
        let bob = try await simulator.purchase(DevicePurchase(accountID: "bob", productID: "pro.monthly")).completed()
        return (simulator, alice, bob)
    }

    static func expectAPIError(
        _ expected: APIErrorCode, status: Int, _ body: () async throws -> Void, sourceLocation: SourceLocation = #_sourceLocation
    ) async {
        do {
            try await body()
            Issue.record("expected error \(expected)", sourceLocation: sourceLocation)
        } catch let error as AppStoreServerAPIError {
            guard case .api(let answeredStatus, let code, let message) = error else {
                Issue.record("expected an Apple error body, got \(error)", sourceLocation: sourceLocation)
                return
            }
            #expect(answeredStatus == status && code == expected && !message.isEmpty, sourceLocation: sourceLocation)
        } catch {
            Issue.record("unexpected \(error)", sourceLocation: sourceLocation)
        }
    }

    @Test func transactionHistoryV1AnswersTheCustomersTransactions() async throws {
        let (simulator, alice, _) = try await Self.world()
        try await buildSimulatorApplication(simulator: simulator).test(.live) { client in
            let api = FidelityWorld.client(port: try #require(client.port))
            let page = try await api.send(.transactionHistoryV1(transactionID: alice.transaction.transactionID), as: HistoryResponse.self)
            #expect(page.bundleId == RuntimeFixture.bundleID)
            #expect(page.hasMore == false && page.revision != nil)
            let signed = try #require(page.signedTransactions)
            #expect(signed.count == 1)
            let payload = try await RuntimeFixture.verifier().verifyTransaction(try #require(signed.first))
            #expect(payload.transactionId == alice.transaction.transactionID)

            await Self.expectAPIError(.transactionIdNotFound, status: 404) {
                _ = try await api.sendReturningData(.transactionHistoryV1(transactionID: "9999999999"))
            }
            await Self.expectAPIError(.invalidTransactionId, status: 400) {
                _ = try await api.sendReturningData(.transactionHistoryV1(transactionID: "not-an-id"))
            }
        }
    }

    @Test func aMassExtensionExtendsEveryActiveSubscriberAndReportsItsStatus() async throws {
        let (simulator, alice, bob) = try await Self.world()
        try await buildSimulatorApplication(simulator: simulator).test(.live) { client in
            let api = FidelityWorld.client(port: try #require(client.port))
            let request = MassExtendRenewalDateRequest(
                extendByDays: 30, extendReasonCode: .serviceIssueOrOutage, requestIdentifier: "outage-2026-11", productId: "pro.monthly")
            let answer = try await api.send(.massExtendRenewalDate(body: .encoding(request)), as: MassExtendRenewalDateResponse.self)
            #expect(answer.requestIdentifier == "outage-2026-11")

            let status = try await api.send(
                .massExtensionStatus(productID: "pro.monthly", requestIdentifier: "outage-2026-11"), as: MassExtendRenewalDateStatusResponse.self)
            #expect(status.requestIdentifier == "outage-2026-11")
            #expect(status.complete == true && status.completeDate != nil)
            #expect(status.succeededCount == 2 && status.failedCount == 0)

            // 30 days of a 300-second month: both periods end 300 s later.
            for purchase in [alice, bob] {
                let info = try await api.send(.transactionInfo(transactionID: purchase.transaction.transactionID), as: TransactionInfoResponse.self)
                let payload = try await RuntimeFixture.verifier().verifyTransaction(try #require(info.signedTransactionInfo))
                #expect(payload.expiresDate == purchase.transaction.expiresDate.map { $0.addingTimeInterval(300) })
            }

            // The request identifier is an idempotency key: sending it again extends nothing more.
            _ = try await api.send(.massExtendRenewalDate(body: .encoding(request)), as: MassExtendRenewalDateResponse.self)
            let again = try await api.send(
                .massExtensionStatus(productID: "pro.monthly", requestIdentifier: "outage-2026-11"), as: MassExtendRenewalDateStatusResponse.self)
            #expect(again.succeededCount == 2)
            #expect(await simulator.currentState().massRenewalExtensions.count == 1)

            // Only storefronts asked for.
            _ = try await api.send(
                .massExtendRenewalDate(
                    body: .encoding(
                        MassExtendRenewalDateRequest(
                            extendByDays: 1, extendReasonCode: .other, requestIdentifier: "fra-only", storefrontCountryCodes: ["FRA"],
                            productId: "pro.monthly"))),
                as: MassExtendRenewalDateResponse.self)
            let france = try await api.send(
                .massExtensionStatus(productID: "pro.monthly", requestIdentifier: "fra-only"), as: MassExtendRenewalDateStatusResponse.self)
            #expect(france.succeededCount == 1)

            await Self.expectAPIError(.statusRequestNotFound, status: 404) {
                _ = try await api.sendReturningData(.massExtensionStatus(productID: "pro.monthly", requestIdentifier: "never-sent"))
            }
            await Self.expectAPIError(.invalidExtendByDays, status: 400) {
                _ = try await api.sendReturningData(
                    .massExtendRenewalDate(
                        body: .encoding(
                            MassExtendRenewalDateRequest(
                                extendByDays: 91, extendReasonCode: .other, requestIdentifier: "too-long", productId: "pro.monthly"))))
            }
            await Self.expectAPIError(.invalidProductId, status: 400) {
                _ = try await api.sendReturningData(
                    .massExtendRenewalDate(
                        body: .encoding(
                            MassExtendRenewalDateRequest(
                                extendByDays: 1, extendReasonCode: .other, requestIdentifier: "lifetime", productId: "lifetime"))))
            }
            await Self.expectAPIError(.invalidStorefrontCountryCode, status: 400) {
                _ = try await api.sendReturningData(
                    .massExtendRenewalDate(
                        body: .encoding(
                            MassExtendRenewalDateRequest(
                                extendByDays: 1, extendReasonCode: .other, requestIdentifier: "bad-storefront", storefrontCountryCodes: ["fr"],
                                productId: "pro.monthly"))))
            }
        }
    }

    @Test func appTransactionInfoAnswersTheCustomersSignedAppTransaction() async throws {
        let (simulator, alice, bob) = try await Self.world()
        try await buildSimulatorApplication(simulator: simulator).test(.live) { client in
            let api = FidelityWorld.client(port: try #require(client.port))
            let answer = try await api.send(.appTransaction(transactionID: alice.transaction.transactionID), as: AppTransactionInfoResponse.self)
            let signed = try #require(answer.signedAppTransactionInfo)
            let payload = try JSONDecoder().decode(AppTransaction.self, from: WirePKI.payloadBytes(signed))
            #expect(payload.bundleId == RuntimeFixture.bundleID)
            #expect(payload.receiptType == .sandbox)
            #expect(payload.appTransactionId == alice.transaction.appTransactionID)
            #expect(payload.applicationVersion == "1.2.3")
            #expect(payload.originalPlatform == .iOS)
            #expect(payload.originalPurchaseDate == alice.transaction.originalPurchaseDate)

            // The appTransactionId itself names the customer too.
            let byAppTransaction = try await api.send(.appTransaction(transactionID: bob.transaction.appTransactionID), as: AppTransactionInfoResponse.self)
            let bobPayload = try JSONDecoder().decode(AppTransaction.self, from: WirePKI.payloadBytes(try #require(byAppTransaction.signedAppTransactionInfo)))
            #expect(bobPayload.appTransactionId == bob.transaction.appTransactionID)

            await Self.expectAPIError(.transactionIdNotFound, status: 404) {
                _ = try await api.sendReturningData(.appTransaction(transactionID: "123456"))
            }
            await Self.expectAPIError(.invalidTransactionId, status: 400) {
                _ = try await api.sendReturningData(.appTransaction(transactionID: "abc"))
            }
        }
    }

    @Test func unknownRoutesAndWrongMethodsAnswerApplesErrorBody() async throws {
        let (simulator, _, _) = try await Self.world()
        try await buildSimulatorApplication(simulator: simulator).test(.live) { client in
            let api = FidelityWorld.client(port: try #require(client.port))
            await Self.expectAPIError(.generalBadRequest, status: 404) {
                _ = try await api.sendReturningData(ServerAPIEndpoint(method: .get, path: "/inApps/v1/no/such/endpoint"))
            }
            // `extend/mass` is the mass extension's: a PUT there is the wrong method, not an id.
            await Self.expectAPIError(.generalBadRequest, status: 405) {
                _ = try await api.sendReturningData(ServerAPIEndpoint(method: .put, path: "/inApps/v1/subscriptions/extend/mass"))
            }
            let (status, allow) = try await client.execute(uri: "/inApps/v1/history/1", method: .post) { response in
                (response.status.code, response.headers[.allow])
            }
            // Authentication comes after routing: an unauthenticated wrong method still says 405.
            #expect(status == 405 && allow == "GET")
        }
    }
}
