import Foundation
import PerennialAppStore
import PerennialCore
import PerennialSimulator

/// A store and its emitter driven together, collecting every wire notification in order.
struct WireRun {
    var state: SimulatorState
    var emitter: NotificationEmitter
    var notifications: [WireNotification] = []

    static let configuration = WireConfiguration(appAppleID: 1_234_567_890, bundleVersion: "1.2.3", sharedSecret: "s3cret")

    init(pki: SimulatorPKI, gracePeriodDays: Int? = nil, seed: UInt64 = 0) {
        state = SimulatorFixture.state(gracePeriodDays: gracePeriodDays, seed: seed)
        emitter = NotificationEmitter(pki: pki, configuration: Self.configuration)
    }

    mutating func apply(_ action: LifecycleAction) throws {
        let output = try state.apply(action)
        notifications += try emitter.emit(output, state: state)
    }

    /// Buys for the fixture tester and returns the original transaction id.
    mutating func buy(_ productID: String, offer: Offer? = nil) throws -> String {
        try apply(.purchase(PurchaseRequest(productID: productID, account: SimulatorFixture.tester, offer: offer)))
        return try lastOriginalTransactionID()
    }

    private func lastOriginalTransactionID() throws -> String {
        guard let id = notifications.last?.intent.originalTransactionID else { throw WireScenario.NoNotification() }
        return id
    }
}

/// What one emitted notification should say.
struct ExpectedNotification: Equatable, CustomStringConvertible {
    let type: String
    let subtype: String?
    let status: Int
    let productID: String
    /// The V1 `notification_type`, nil when V1 has no equivalent.
    let v1: String?

    var description: String { "\(type)/\(subtype ?? "-") status \(status) \(productID) V1 \(v1 ?? "-")" }
}

/// The lifecycle paths the wire tests replay.
enum WireScenario: String, CaseIterable, CustomStringConvertible {
    case trialPurchase, renewal, upgrade, refund, billingFailureWithGrace, expiry

    struct NoNotification: Error {}

    var description: String { rawValue }

    func run(pki: SimulatorPKI, seed: UInt64 = 0) throws -> WireRun {
        switch self {
        case .trialPurchase:
            var run = WireRun(pki: pki, seed: seed)
            _ = try run.buy("basic.monthly", offer: Offer(type: .introductory, paymentMode: .freeTrial, period: "P1W"))
            return run
        case .renewal:
            var run = WireRun(pki: pki, seed: seed)
            _ = try run.buy("pro.monthly")
            try run.apply(.advance(to: SimulatorFixture.at(300)))
            return run
        case .upgrade:
            var run = WireRun(pki: pki, seed: seed)
            let id = try run.buy("basic.monthly")
            try run.apply(.advance(to: SimulatorFixture.at(75)))
            try run.apply(.changeProduct(originalTransactionID: id, productID: "pro.monthly"))
            return run
        case .refund:
            var run = WireRun(pki: pki, seed: seed)
            let id = try run.buy("pro.monthly")
            try run.apply(.refund(transactionID: id, amount: .full, reason: .developerIssue))
            return run
        case .billingFailureWithGrace:
            var run = WireRun(pki: pki, gracePeriodDays: 16, seed: seed)
            let id = try run.buy("pro.monthly")
            try run.apply(.failBilling(originalTransactionID: id, grace: true))
            try run.apply(.advance(to: SimulatorFixture.at(300)))
            try run.apply(.advance(to: SimulatorFixture.at(500)))
            return run
        case .expiry:
            var run = WireRun(pki: pki, seed: seed)
            let id = try run.buy("pro.monthly")
            try run.apply(.setAutoRenew(originalTransactionID: id, enabled: false))
            try run.apply(.advance(to: SimulatorFixture.at(300)))
            return run
        }
    }

    var expected: [ExpectedNotification] {
        let initialBuy = { (product: String) in
            ExpectedNotification(type: "SUBSCRIBED", subtype: "INITIAL_BUY", status: 1, productID: product, v1: "INITIAL_BUY")
        }
        switch self {
        case .trialPurchase:
            return [initialBuy("basic.monthly")]
        case .renewal:
            return [initialBuy("pro.monthly"), .init(type: "DID_RENEW", subtype: nil, status: 1, productID: "pro.monthly", v1: "DID_RENEW")]
        case .upgrade:
            return [
                initialBuy("basic.monthly"),
                .init(type: "DID_CHANGE_RENEWAL_PREF", subtype: "UPGRADE", status: 1, productID: "pro.monthly", v1: "INTERACTIVE_RENEWAL"),
            ]
        case .refund:
            return [initialBuy("pro.monthly"), .init(type: "REFUND", subtype: nil, status: 5, productID: "pro.monthly", v1: "CANCEL")]
        case .billingFailureWithGrace:
            return [
                initialBuy("pro.monthly"),
                .init(type: "DID_FAIL_TO_RENEW", subtype: "GRACE_PERIOD", status: 4, productID: "pro.monthly", v1: "DID_FAIL_TO_RENEW"),
                .init(type: "GRACE_PERIOD_EXPIRED", subtype: nil, status: 3, productID: "pro.monthly", v1: nil),
            ]
        case .expiry:
            return [
                initialBuy("pro.monthly"),
                .init(type: "DID_CHANGE_RENEWAL_STATUS", subtype: "AUTO_RENEW_DISABLED", status: 1, productID: "pro.monthly", v1: "DID_CHANGE_RENEWAL_STATUS"),
                .init(type: "EXPIRED", subtype: "VOLUNTARY", status: 2, productID: "pro.monthly", v1: nil),
            ]
        }
    }
}

enum WirePKI {
    /// One PKI for all wire tests (key generation is the slow part), valid before the fixture start.
    static let shared: Result<SimulatorPKI, SimulatorWireError> = Result { () throws(SimulatorWireError) in
        try SimulatorPKI.generate(validFrom: SimulatorFixture.start.addingTimeInterval(-86_400))
    }

    static func get() throws -> SimulatorPKI { try shared.get() }

    /// The JSON object a compact JWS signs.
    static func payloadObject(_ jws: String) throws -> [String: Any] {
        guard let object = try JSONSerialization.jsonObject(with: payloadBytes(jws)) as? [String: Any] else {
            throw MalformedJWS(jws: jws)
        }
        return object
    }

    /// The payload bytes of a compact JWS.
    static func payloadBytes(_ jws: String) throws -> Data {
        let parts = jws.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let data = Base64URL.decode(parts[1]) else { throw MalformedJWS(jws: jws) }
        return data
    }

    struct MalformedJWS: Error { let jws: String }
}

extension WireNotification {
    /// The V2 body's JWS; every emitted notification has one.
    func signed() throws -> String {
        guard let signed = body.signedPayload else { throw WirePKI.MalformedJWS(jws: "") }
        return signed
    }
}
