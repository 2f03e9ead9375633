import Foundation
import PerennialAppStore
import PerennialCore
import PerennialSimulator
import Testing

@Suite struct WireDeterminismTests {
    @Test(arguments: WireScenario.allCases)
    func sameSeedGivesIdenticalPayloadBytes(_ scenario: WireScenario) throws {
        // Separate PKIs: only the signatures and certificates may differ between runs.
        let first = try scenario.run(pki: WirePKI.get(), seed: 7)
        let second = try scenario.run(pki: SimulatorPKI.generate(validFrom: SimulatorFixture.start), seed: 7)
        #expect(try payloadBytes(first) == payloadBytes(second))
        #expect(first.notifications.map(\.v1) == second.notifications.map(\.v1))
        #expect(first.notifications.map { $0.body.signedPayload } != second.notifications.map { $0.body.signedPayload })
    }

    @Test func notificationUUIDsDifferWithinARunAndAcrossSeeds() throws {
        let pki = try WirePKI.get()
        let seven = try WireScenario.billingFailureWithGrace.run(pki: pki, seed: 7).notifications.compactMap(\.payload.notificationUUID)
        let eight = try WireScenario.billingFailureWithGrace.run(pki: pki, seed: 8).notifications.compactMap(\.payload.notificationUUID)
        #expect(seven.count == 3)
        #expect(Set(seven).count == seven.count)
        #expect(Set(seven).isDisjoint(with: eight))
        #expect(seven.allSatisfy { UUID(uuidString: $0) != nil && $0 == $0.lowercased() })
    }

    /// Every payload a run signed, as bytes: each notification's payload (its nested JWS, whose
    /// signatures differ, replaced by placeholders) followed by the nested payloads themselves.
    private func payloadBytes(_ run: WireRun) throws -> [Data] {
        try run.notifications.flatMap { notification -> [Data] in
            let nested = [notification.payload.data?.signedTransactionInfo, notification.payload.data?.signedRenewalInfo]
                .compactMap { $0 }
            var text = String(decoding: try WirePKI.payloadBytes(notification.signed()), as: UTF8.self)
            for (index, jws) in nested.enumerated() {
                #expect(text.contains(jws))
                text = text.replacingOccurrences(of: jws, with: "<nested \(index)>")
            }
            return try [Data(text.utf8)] + nested.map(WirePKI.payloadBytes)
        }
    }
}
