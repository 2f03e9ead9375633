import Foundation
import PerennialAppStore
import PerennialCore
@testable import PerennialSimulator
import Testing

/// The other half of ``AppleSchemaTests``: not only does every field the simulator signs belong to
/// Apple's documented models, every documented field shows up somewhere. The walk plays the
/// scenario library (a monthly plan with a 12-month commitment among its stories), a mass
/// extension, a test notification, app transactions and consent rescissions in both environments,
/// the realtime retention request and the Server API's transaction history after an upgrade, and
/// opens every nested JWS; a field of ``AppleWireSchemas`` (the V2 family: notifications with their
/// `data`, `summary`, `appData` and `externalPurchaseToken`, transactions, renewal infos, app
/// transactions, the realtime request) that never appears fails the test by name. When Apple
/// documents a new field and it is added to the schemas, this is the list it shows up in until the
/// simulator sends it.
@Suite struct AppleFieldPresenceTests {
    /// What the simulator cannot send yet, each group for its reason: a field (`Object.field`) or a
    /// whole object (`Object`). Keep it short: an entry here is a gap a client testing against the
    /// simulator never sees.
    static let notProduced: [(reason: String, fields: [String])] = [
        (
            "the simulator sells no Advanced Commerce API products",
            ["JWSTransactionDecodedPayload.advancedCommerceInfo", "JWSRenewalInfoDecodedPayload.advancedCommerceInfo"]
        ),
        ("external purchase links (EXTERNAL_PURCHASE_TOKEN) are not modelled", ["responseBodyV2DecodedPayload.externalPurchaseToken", "externalPurchaseToken"]),
        (
            "the app transaction a device reads is bound to that device, and preorders are not modelled",
            ["AppTransaction.deviceVerification", "AppTransaction.deviceVerificationNonce", "AppTransaction.preorderDate"]
        ),
    ]

    /// Whether `field` is in the allow-list, by itself or with its whole object.
    static func allowed(_ field: String) -> Bool {
        let object = String(field.prefix { $0 != "." })
        return notProduced.contains { $0.fields.contains(field) || $0.fields.contains(object) }
    }

    static let envelope = WireSchema("responseBodyV2", required: ["signedPayload"], ["signedPayload": .jws(AppleWireSchemas.notificationV2)])
    static let schemas = [envelope, AppleWireSchemas.appTransaction, AppleWireSchemas.realtimeRequest]

    /// Every field of the V2 family some payload the simulator signed carries.
    static func presentFields() async throws -> Set<String> {
        var present: Set<String> = []
        for name in ScenarioFiles.names {
            for body in try await AppleSchemaTests.produced(by: name).v2 { present.formUnion(envelope.presentFields(in: body)) }
        }

        let simulator = try await FidelityWorld.simulator(transport: RecordingTransport())
        let test = try await simulator.sendTestNotification()
        present.formUnion(envelope.presentFields(in: try Self.json(test.notification.body)))
        for environment in [AppStoreEnvironment.sandbox, .production] {
            let store = try await RuntimeFixture.simulator(environment: environment)
            let appTransaction = try await store.appTransaction(accountID: RuntimeFixture.alice)
            present.formUnion(AppleWireSchemas.appTransaction.presentFields(in: try Self.payload(of: appTransaction)))
            let rescission = try await store.rescindConsent(accountID: RuntimeFixture.alice)
            present.formUnion(envelope.presentFields(in: try Self.json(rescission.notification.body)))
        }

        let extending = try await RuntimeFixture.simulator()
        _ = try await extending.purchase(DevicePurchase(accountID: RuntimeFixture.alice, productID: "pro.monthly")).completed()
        let step = try await extending.perform(
            .massExtendRenewalDates(productID: "pro.monthly", days: 5, reason: .other, requestIdentifier: "presence", storefrontCountryCodes: ["USA"]))
        for notification in step.notifications { present.formUnion(envelope.presentFields(in: try Self.json(notification.body))) }

        for environment in [AppStoreEnvironment.sandbox, .production] {
            let call = RealtimeMessagingCall(pki: try WirePKI.get(), environment: environment, appAppleID: 1_234_567_890, timeout: .seconds(1))
            let signed = try call.signedRequest(originalTransactionID: "2000000000000001", productID: "pro.monthly", locale: "en-US", now: SimulatorFixture.start)
            present.formUnion(AppleWireSchemas.realtimeRequest.presentFields(in: try Self.payload(of: signed)))
        }
        // The transaction an upgrade replaced is seen again only in the history (`isUpgraded`).
        let harness = try ServerAPIHarness()
        let upgraded = try await harness.buy("basic.monthly")
        try await harness.perform(.changeProduct(originalTransactionID: upgraded, productID: "pro.monthly"))
        for page in try await harness.client().allPages(.transactionHistory(transactionID: upgraded), as: HistoryResponse.self) {
            for signed in page.signedTransactions ?? [] {
                present.formUnion(AppleWireSchemas.transaction.presentFields(in: try Self.payload(of: signed)))
            }
        }
        return present
    }

    @Test func everyDocumentedFieldAppearsInSomethingTheSimulatorSigns() async throws {
        let documented = Self.schemas.reduce(into: Set<String>()) { $0.formUnion($1.documentedFields) }
        let missing = documented.subtracting(try await Self.presentFields()).filter { !Self.allowed($0) }
        #expect(missing.isEmpty, "documented by Apple, never sent by the simulator:\n\(missing.sorted().joined(separator: "\n"))")
    }

    /// The allow-list only names documented fields, and no field both in it and sent: an entry
    /// the simulator has caught up with must leave the list.
    @Test func theAllowListNamesOnlyFieldsStillMissing() async throws {
        let documented = Self.schemas.reduce(into: Set<String>()) { $0.formUnion($1.documentedFields) }
        let objects = Set(documented.map { String($0.prefix { $0 != "." }) })
        let listed = Set(Self.notProduced.flatMap(\.fields))
        #expect(listed.subtracting(documented).subtracting(objects).isEmpty, "not a documented field or object")
        let present = try await Self.presentFields()
        #expect(present.filter(Self.allowed).isEmpty, "sent now, so no longer missing: \(present.filter(Self.allowed).sorted())")
    }

    /// The walk itself finds what is there: a full sample carries every documented field.
    @Test func theWalkFindsEveryFieldOfAFullSample() {
        let schema = AppleWireSchemas.notificationV2
        let found = schema.presentFields(in: schema.fullSample)
        let direct = Set(schema.fields.keys.map { "\(schema.name).\($0)" })
        #expect(direct.isSubset(of: found))
        #expect(found.contains("summary.succeededCount") && found.contains("data.consumptionRequestReason"))
    }

    static func json(_ body: ResponseBodyV2) throws -> JSONValue {
        try JSONDecoder().decode(JSONValue.self, from: try JSONEncoder().encode(body))
    }

    static func payload(of compact: String) throws -> JSONValue {
        try JSONDecoder().decode(JSONValue.self, from: try JWSDecoding.unverifiedPayload(of: compact))
    }
}
