import Foundation
import PerennialAppStore
import PerennialCore
import PerennialSimulator

/// Signed notifications for the delivery tests, produced by the real lifecycle and emitter.
enum DeliveryFixture {
    static let v2URL = URL(string: "http://receiver.test/v2")!
    static let v1URL = URL(string: "http://receiver.test/v1")!
    static let both = DeliveryTargets(v2: v2URL, v1: v1URL)

    /// One JWS-only PKI for the process (P-256/P-384 keys are quick; no RSA).
    static let pki: Result<SimulatorPKI, SimulatorWireError> = Result { () throws(SimulatorWireError) in
        try SimulatorPKI.generate(validFrom: SimulatorFixture.start.addingTimeInterval(-86_400))
    }

    /// `count` notifications: an INITIAL_BUY followed by renewals, each with a V1 equivalent.
    static func notifications(_ count: Int) throws -> [WireNotification] {
        var state = SimulatorFixture.state(renewalLimit: 1_000)
        var emitter = NotificationEmitter(pki: try pki.get())
        var result = try emitter.emit(
            state.apply(.purchase(PurchaseRequest(productID: "pro.monthly", account: SimulatorFixture.tester))), state: state)
        var second: TimeInterval = 0
        while result.count < count {
            second += SimulatorFixture.month
            result += try emitter.emit(state.apply(.advance(to: SimulatorFixture.at(second))), state: state)
        }
        return Array(result.prefix(count))
    }

    static func queue(
        targets: DeliveryTargets = both, timeScale: SandboxTimeScale = .sandbox(.everyFiveMinutes), retries: Bool = true,
        faults: DeliveryFaults = .none, seed: UInt64 = 0
    ) -> NotificationDeliveryQueue {
        NotificationDeliveryQueue(targets: targets, schedule: RetrySchedule(timeScale: timeScale, retries: retries), faults: faults, seed: seed)
    }
}

extension NotificationDeliveryQueue {
    /// Drives the queue like the runtime does, answering every POST with `answer` (given the
    /// request), until nothing is due by `limit`; returns every request made, in order.
    mutating func drain(until limit: Date, answer: (DeliveryRequest) -> DeliveryOutcome) -> [DeliveryRequest] {
        var made: [DeliveryRequest] = []
        while case let batch = takeNext(notAfter: limit), !batch.isEmpty {
            for request in batch {
                made.append(request)
                record(request, outcome: answer(request))
            }
        }
        return made
    }
}
