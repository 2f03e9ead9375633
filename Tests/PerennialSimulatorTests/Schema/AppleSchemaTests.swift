import Foundation
import PerennialAppStore
import PerennialCore
@testable import PerennialSimulator
import Testing

/// Every payload the simulator produces, checked against Apple's documented fields and exact types
/// (``AppleWireSchemas``), and the reverse: a payload carrying every documented field, each with
/// Apple's type, is read by Perennial's decoders without losing a field.
@Suite struct AppleSchemaTests {
    /// What one scenario made the simulator say, as it went on the wire.
    struct Produced {
        var v2: [JSONValue] = []
        var v1: [JSONValue] = []
        var verifyReceipt: [JSONValue] = []
        var v2Types: Set<String> = []
    }

    static let receiptPKI: Result<SimulatorPKI, SimulatorWireError> = Result { () throws(SimulatorWireError) in
        try SimulatorPKI.generate(validFrom: ScenarioStore.defaultStart.addingTimeInterval(-86_400), includesReceipts: true)
    }

    /// Runs scenario `name` and collects its V2 and V1 notification bodies and, after the run, each
    /// account's verifyReceipt answer.
    static func produced(by name: String) async throws -> Produced {
        let scenario = try ScenarioFiles.load(name)
        let pki = try receiptPKI.get()
        let backend = try ScenarioFiles.backend(for: scenario, pki: pki)
        let timeline = try await ScenarioRunner(scenario: scenario).run(on: backend)
        var produced = Produced()
        for notification in timeline.notifications {
            let body = try JSONEncoder().encode(notification.wire.body)
            produced.v2.append(try JSONDecoder().decode(JSONValue.self, from: body))
            produced.v2Types.insert(notification.type)
            if let v1 = notification.wire.v1 { produced.v1.append(try JSONDecoder().decode(JSONValue.self, from: try JSONEncoder().encode(v1))) }
        }
        let state = await backend.currentState()
        let bundleID = try #require(state.configuration.catalog.apps.first?.bundleID)
        let responder = VerifyReceiptResponder(
            configuration: VerifyReceiptResponder.Configuration(environment: state.configuration.environment, app: scenario.store.wireConfiguration))
        for account in Set(state.lifecycles.map(\.account)).sorted(by: { $0.id < $1.id }) {
            let receipt = try DeviceReceipt(account: account, bundleID: bundleID, state: state, pki: pki, configuration: scenario.store.wireConfiguration)
            let reply = try await responder.respond(to: VerifyReceiptRequest(receipt_data: receipt.base64, password: "secret"), state: state, pki: pki)
            let response = try #require(reply.response)
            produced.verifyReceipt.append(try JSONDecoder().decode(JSONValue.self, from: try JSONEncoder().encode(response)))
        }
        return produced
    }

    @Test(arguments: ScenarioFiles.names)
    func everyPayloadOfAScenarioHasApplesFieldsAndTypes(_ name: String) async throws {
        let produced = try await Self.produced(by: name)
        #expect(!produced.v2.isEmpty)
        for body in produced.v2 {
            let envelope = WireSchema("responseBodyV2", required: ["signedPayload"], ["signedPayload": .jws(AppleWireSchemas.notificationV2)])
            let violations = envelope.violations(of: body)
            #expect(violations.isEmpty, "\(name): \(violations.joined(separator: "\n"))")
        }
        for body in produced.v1 {
            let violations = AppleWireSchemas.notificationV1.violations(of: body)
            #expect(violations.isEmpty, "\(name) V1: \(violations.joined(separator: "\n"))")
        }
        for body in produced.verifyReceipt {
            let violations = AppleWireSchemas.verifyReceiptResponse.violations(of: body)
            #expect(violations.isEmpty, "\(name) verifyReceipt: \(violations.joined(separator: "\n"))")
        }
    }
}

extension AppleSchemaTests {
    /// The notification types the simulator can send: every one is walked, in a scenario or here.
    static let simulatedTypes: Set<String> = [
        "SUBSCRIBED", "DID_RENEW", "DID_CHANGE_RENEWAL_PREF", "DID_CHANGE_RENEWAL_STATUS", "DID_FAIL_TO_RENEW", "GRACE_PERIOD_EXPIRED", "EXPIRED",
        "OFFER_REDEEMED", "PRICE_INCREASE", "REFUND", "REFUND_DECLINED", "REFUND_REVERSED", "CONSUMPTION_REQUEST", "RENEWAL_EXTENDED", "REVOKE",
        "ONE_TIME_CHARGE",
    ]

    @Test func theScenarioLibraryWalksEveryNotificationTypeTheSimulatorSends() async throws {
        var seen: Set<String> = []
        for name in ScenarioFiles.names { seen.formUnion(try await Self.produced(by: name).v2Types) }
        #expect(Self.simulatedTypes.subtracting(seen).isEmpty, "not walked: \(Self.simulatedTypes.subtracting(seen).sorted())")
    }

    @Test func theTestNotificationAndTheAppTransactionHaveApplesFieldsAndTypes() async throws {
        let simulator = try await FidelityWorld.simulator(transport: RecordingTransport())
        let record = try await simulator.sendTestNotification()
        let body = try JSONDecoder().decode(JSONValue.self, from: try JSONEncoder().encode(record.notification.body))
        let envelope = WireSchema("responseBodyV2", required: ["signedPayload"], ["signedPayload": .jws(AppleWireSchemas.notificationV2)])
        #expect(envelope.violations(of: body).isEmpty, "\(envelope.violations(of: body))")

        let appTransaction = try await simulator.appTransaction(accountID: RuntimeFixture.alice)
        let payload = try JSONDecoder().decode(JSONValue.self, from: try JWSDecoding.unverifiedPayload(of: appTransaction))
        #expect(AppleWireSchemas.appTransaction.violations(of: payload).isEmpty, "\(AppleWireSchemas.appTransaction.violations(of: payload))")
    }

    @Test(arguments: [AppStoreEnvironment.sandbox, .production])
    func theRealtimeRetentionRequestHasApplesFieldsAndTypes(_ environment: AppStoreEnvironment) throws {
        let call = RealtimeMessagingCall(pki: try WirePKI.get(), environment: environment, appAppleID: 1_234_567_890, timeout: .seconds(1))
        let signed = try call.signedRequest(originalTransactionID: "2000000000000001", productID: "pro.monthly", locale: "en-US", now: SimulatorFixture.start)
        let payload = try JSONDecoder().decode(JSONValue.self, from: try JWSDecoding.unverifiedPayload(of: signed))
        let schema = AppleWireSchemas.realtimeRequest
        #expect(schema.violations(of: payload).isEmpty, "\(schema.violations(of: payload))")
        guard case .object(let fields) = payload else { return }
        #expect((fields["appAppleId"] != nil) == (environment == .production), "appAppleId in production only")
    }

    /// The checker itself fails on what Apple would not send, so a clean walk means something.
    @Test func theCheckerRefusesWrongTypesUnknownFieldsAndMissingOnes() {
        let schema = AppleWireSchemas.transaction
        var sample = schema.fullSample
        #expect(schema.violations(of: sample).isEmpty)
        guard case .object(var object) = sample else { return }
        object["purchaseDate"] = .number(1_700_000_000_123.5)
        object["quantity"] = .string("1")
        object["isUpgraded"] = .integer(1)
        object["type"] = .string("Subscription")
        object["madeUp"] = .string("x")
        object["transactionId"] = nil
        sample = .object(object)
        let violations = schema.violations(of: sample)
        for field in ["purchaseDate", "quantity", "isUpgraded", "type", "madeUp", "transactionId"] {
            #expect(violations.contains { $0.contains(".\(field):") }, "\(field) passed: \(violations)")
        }
    }

    /// The reverse: a payload with every documented field decodes in Perennial's model and
    /// re-encodes with every field still there.
    @Test(arguments: ["transaction", "renewalInfo", "appTransaction", "notificationV2", "notificationV1", "verifyReceipt", "realtimeRequest"])
    func perennialsDecodersReadEveryDocumentedField(_ name: String) throws {
        let (schema, roundTrip): (WireSchema, (Data) throws -> Data) =
            switch name {
            case "transaction": (AppleWireSchemas.transaction, { try Self.roundTrip(JWSTransactionDecodedPayload.self, $0) })
            case "renewalInfo": (AppleWireSchemas.renewalInfo, { try Self.roundTrip(JWSRenewalInfoDecodedPayload.self, $0) })
            case "appTransaction": (AppleWireSchemas.appTransaction, { try Self.roundTrip(AppTransaction.self, $0) })
            case "notificationV2": (AppleWireSchemas.notificationV2, { try Self.roundTrip(ResponseBodyV2DecodedPayload.self, $0) })
            case "notificationV1": (AppleWireSchemas.notificationV1, { try Self.roundTrip(NotificationV1.self, $0) })
            case "realtimeRequest": (AppleWireSchemas.realtimeRequest, { try Self.roundTrip(DecodedRealtimeRequestBody.self, $0) })
            default: (AppleWireSchemas.verifyReceiptResponse, { try Self.roundTrip(VerifyReceiptResponse.self, $0) })
            }
        let encoded = try roundTrip(try JSONEncoder().encode(schema.fullSample))
        let dropped = schema.droppedFields(in: try JSONDecoder().decode(JSONValue.self, from: encoded))
        #expect(dropped.isEmpty, "\(name) drops \(dropped)")
    }

    private static func roundTrip<T: Codable>(_ type: T.Type, _ data: Data) throws -> Data {
        try JSONEncoder().encode(try JSONDecoder().decode(T.self, from: data))
    }
}
