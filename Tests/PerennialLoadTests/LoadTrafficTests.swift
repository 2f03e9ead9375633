import Foundation
import PerennialAppStore
import PerennialCore
import PerennialLoad
import PerennialSimulator
import Testing

@Suite struct LoadTrafficTests {
    /// The retention scenario's requests must pass the server's verification, or the load would
    /// measure refusals: the body is what Apple POSTs, signed under the PKI the server trusts, about
    /// the subscription asked for, and each carries its own request identifier.
    @Test func aRetentionRequestVerifiesAsApplesAndNamesTheSubscription() async throws {
        let now = Date()
        let pki = try SimulatorPKI.generate(validFrom: now.addingTimeInterval(-60))
        let traffic = LoadTraffic(pki: pki)
        let verifier = try SignedDataVerifier(trustedRoots: [pki.jws.root], bundleID: traffic.bundleID, environment: .sandbox)
        var identifiers: Set<String> = []
        for original in ["1000000000001", "1000000000002"] {
            let body = try JSONDecoder().decode(RealtimeRequestBody.self, from: Data(try traffic.retentionRequestBody(originalTransactionID: original, now: now).utf8))
            let request = try await verifier.verifyRealtimeRequest(body.signedPayload)
            #expect(request.originalTransactionId == original)
            #expect(request.productId == traffic.productID && request.environment == .sandbox)
            identifiers.insert(try #require(request.requestIdentifier))
        }
        #expect(identifiers.count == 2)

        let other = try SimulatorPKI.generate(validFrom: now.addingTimeInterval(-60))
        let foreign = try JSONDecoder().decode(
            RealtimeRequestBody.self, from: Data(try LoadTraffic(pki: other).retentionRequestBody(originalTransactionID: "1", now: now).utf8))
        await #expect(throws: SignedDataVerificationError.self) { try await verifier.verifyRealtimeRequest(foreign.signedPayload) }
    }
}
