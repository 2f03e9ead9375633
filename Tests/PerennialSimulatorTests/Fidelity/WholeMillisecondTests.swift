import Foundation
import Hummingbird
import HummingbirdTesting
import PerennialAppStore
import PerennialCore
import PerennialSimulator
import Testing

/// Apple writes every instant as whole epoch milliseconds in a JSON integer. These decoders
/// require `Int64` for every date field, so a fraction (`1795553531332.2112`) fails to decode.
private enum Strict {
    struct Transaction: Decodable {
        let purchaseDate: Int64
        let originalPurchaseDate: Int64
        let expiresDate: Int64?
        let signedDate: Int64
        let revocationDate: Int64?
    }

    struct RenewalInfo: Decodable {
        let signedDate: Int64
        let recentSubscriptionStartDate: Int64
        let renewalDate: Int64?
        let gracePeriodExpiresDate: Int64?
    }

    struct Notification: Decodable {
        struct Data: Decodable {
            let signedTransactionInfo: String?
            let signedRenewalInfo: String?
        }
        let signedDate: Int64
        let data: Data?
    }

    struct AppTransaction: Decodable {
        let receiptCreationDate: Int64
        let originalPurchaseDate: Int64
        let signedDate: Int64
    }

    struct NotificationHistory: Decodable {
        struct Item: Decodable {
            struct Attempt: Decodable { let attemptDate: Int64 }
            let signedPayload: String
            let sendAttempts: [Attempt]
        }
        let notificationHistory: [Item]
    }

    struct Extension: Decodable { let effectiveDate: Int64 }

    struct MassStatus: Decodable { let completeDate: Int64 }

    static func decode<T: Decodable>(_ type: T.Type, _ data: Foundation.Data) throws -> T {
        try JSONDecoder().decode(T.self, from: data)
    }

    static func payload<T: Decodable>(_ type: T.Type, of jws: String) throws -> T {
        try decode(T.self, WirePKI.payloadBytes(jws))
    }
}

@Suite("Whole milliseconds in everything the simulator signs and answers")
struct WholeMillisecondTests {
    @Test func theStrictDecoderRefusesAFraction() throws {
        let fractional = Data(#"{"purchaseDate": 1795553531332.2112, "originalPurchaseDate": 1, "signedDate": 1}"#.utf8)
        #expect(throws: DecodingError.self) { try Strict.decode(Strict.Transaction.self, fractional) }
        #expect(FidelityWorld.fractionalNumbers(in: fractional) == ["1795553531332.2112"])
        #expect(FidelityWorld.fractionalNumbers(in: Data(#"{"a": false, "b": true, "c": -12, "d": "1.5e3"}"#.utf8)).isEmpty)
    }

    @Test func theClockStandsOnWholeMilliseconds() {
        let cut = FidelityWorld.start.wholeMilliseconds
        #expect(cut.timeIntervalSince1970 * 1000 == 1_700_000_000_332)
        #expect(cut.wholeMilliseconds == cut)
        let state = SimulatorState(configuration: SimulatorConfiguration(catalog: SimulatorFixture.catalog), start: FidelityWorld.start)
        #expect(state.now == cut)
    }

    @Test func everyPayloadKindCarriesIntegerMilliseconds() async throws {
        let transport = RecordingTransport()
        let simulator = try await FidelityWorld.simulator(transport: transport)
        let (alice, bob) = try await FidelityWorld.aliceAndBobBuy(simulator)
        _ = try await simulator.advance(by: 123.456_789_1)
        let original = alice.transaction.originalTransactionID
        _ = try await simulator.perform(.failBilling(originalTransactionID: original, grace: true))
        _ = try await simulator.advance(by: 300.000_321)
        _ = try await simulator.purchase(DevicePurchase(accountID: "bob", productID: "lifetime"))
        _ = try await simulator.advance(by: 0.000_7)

        // StoreKit's signed transaction.
        #expect(try Strict.payload(Strict.Transaction.self, of: alice.signedTransaction).purchaseDate == 1_700_000_000_332)

        // V2 notifications and their nested JWS.
        let payloads = try FidelityWorld.signedPayloads(transport)
        #expect(payloads.count >= 4)
        for signed in payloads {
            #expect(FidelityWorld.fractionalNumbers(in: try WirePKI.payloadBytes(signed)).isEmpty)
            let notification = try Strict.payload(Strict.Notification.self, of: signed)
            let transaction = try #require(notification.data?.signedTransactionInfo)
            _ = try Strict.payload(Strict.Transaction.self, of: transaction)
            #expect(FidelityWorld.fractionalNumbers(in: try WirePKI.payloadBytes(transaction)).isEmpty)
            if let renewal = notification.data?.signedRenewalInfo {
                _ = try Strict.payload(Strict.RenewalInfo.self, of: renewal)
                #expect(FidelityWorld.fractionalNumbers(in: try WirePKI.payloadBytes(renewal)).isEmpty)
            }
        }
        let graceRenewal = try payloads.compactMap { try Strict.payload(Strict.Notification.self, of: $0).data?.signedRenewalInfo }
            .map { try Strict.payload(Strict.RenewalInfo.self, of: $0) }
        #expect(graceRenewal.contains { $0.gracePeriodExpiresDate != nil })

        // Server API answers, through the production client over HTTP.
        try await buildSimulatorApplication(simulator: simulator).test(.live) { client in
            let api = FidelityWorld.client(port: try #require(client.port))
            var answers: [Data] = []
            answers.append(try await api.sendReturningData(.subscriptionStatuses(transactionID: original)))
            answers.append(try await api.sendReturningData(.transactionHistory(transactionID: original)))
            answers.append(try await api.sendReturningData(.transactionHistoryV1(transactionID: original)))
            answers.append(try await api.sendReturningData(.transactionInfo(transactionID: original)))

            let extended = try await api.sendReturningData(
                .extendRenewalDate(
                    originalTransactionID: bob.transaction.originalTransactionID,
                    body: .encoding(ExtendRenewalDateRequest(extendByDays: 3, extendReasonCode: .customerSatisfaction, requestIdentifier: "one")))
            )
            _ = try Strict.decode(Strict.Extension.self, extended)
            answers.append(extended)

            _ = try await api.sendReturningData(
                .massExtendRenewalDate(
                    body: .encoding(
                        MassExtendRenewalDateRequest(
                            extendByDays: 1, extendReasonCode: .serviceIssueOrOutage, requestIdentifier: "mass-1", productId: "basic.monthly"))))
            let status = try await api.sendReturningData(.massExtensionStatus(productID: "basic.monthly", requestIdentifier: "mass-1"))
            _ = try Strict.decode(Strict.MassStatus.self, status)
            answers.append(status)

            let appTransaction = try await api.send(.appTransaction(transactionID: original), as: AppTransactionInfoResponse.self)
            let signedApp = try #require(appTransaction.signedAppTransactionInfo)
            _ = try Strict.payload(Strict.AppTransaction.self, of: signedApp)
            #expect(FidelityWorld.fractionalNumbers(in: try WirePKI.payloadBytes(signedApp)).isEmpty)

            let history = try await api.sendReturningData(
                .notificationHistory(
                    body: .encoding(
                        NotificationHistoryRequest(
                            startDate: FidelityWorld.start.addingTimeInterval(-60), endDate: FidelityWorld.start.addingTimeInterval(86_400)))))
            let items = try Strict.decode(Strict.NotificationHistory.self, history).notificationHistory
            #expect(!items.isEmpty && items.allSatisfy { !$0.sendAttempts.isEmpty })
            answers.append(history)

            for answer in answers {
                #expect(FidelityWorld.fractionalNumbers(in: answer).isEmpty)
                for jws in Self.compactJWS(in: answer) {
                    #expect(FidelityWorld.fractionalNumbers(in: try WirePKI.payloadBytes(jws)).isEmpty)
                    let object = try WirePKI.payloadObject(jws)
                    if object["transactionId"] != nil {
                        _ = try Strict.payload(Strict.Transaction.self, of: jws)
                    } else if object["recentSubscriptionStartDate"] != nil {
                        _ = try Strict.payload(Strict.RenewalInfo.self, of: jws)
                    } else {
                        _ = try Strict.payload(Strict.Notification.self, of: jws)
                    }
                }
            }
        }
    }

    /// Every string value of `json` that is a compact JWS (three base64url parts).
    static func compactJWS(in json: Data) -> [String] {
        func walk(_ value: Any) -> [String] {
            switch value {
            case let text as String:
                return text.split(separator: ".", omittingEmptySubsequences: false).count == 3 && text.hasPrefix("eyJ") ? [text] : []
            case let array as [Any]: return array.flatMap(walk)
            case let object as [String: Any]: return object.values.flatMap(walk)
            default: return []
            }
        }
        return (try? JSONSerialization.jsonObject(with: json)).map(walk) ?? []
    }
}
