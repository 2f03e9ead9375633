import PerennialWire
import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import PerennialServer
import PerennialStorage
import Testing

/// What a caller sends is bounded and checked before anything is written (docs/configuration.md,
/// "Limits"): the probe's `offerId: ""` was refused only after the user's row was created, a 100 KB
/// or control-character offer id was signed, admin bodies were read whatever their type and keys.
@Suite struct InputBoundsTests {
    /// Each refused offer leaves the user unknown: an operator's grant for them still finds nobody.
    @Test(arguments: ["", String(repeating: "o", count: 100_000), "winback\u{0}", "a\u{2063}b", "line\nbreak"])
    func anOfferIdThatCannotBeOneIsRefusedBeforeAnythingIsWritten(offerID: String) async throws {
        let server = try await ServerHarness(offerKey: P256.Signing.PrivateKey())
        try await server.test { client in
            let body = try JSONEncoder().encode(OfferSignatureRequest(productId: "pro.monthly", offerId: offerID))
            let refused = try await client.send(.post, "/v1/subscribers/carol/offers/sign", body: body)
            #expect(refused.status == .badRequest, "\(refused.text)")
            #expect(refused.errorCode == "malformedRequest")
            let grant = try await client.send(
                .post, "/admin/v1/apps/demo/subscribers/carol/grants", key: ServerHarness.adminKey,
                body: Data(#"{"entitlementId":"pro","duration":"P3D"}"#.utf8))
            #expect(grant.status == .notFound, "\(grant.text)")
        }
    }

    @Test func eligibilityTakesABoundedListOfIdentifiers() async throws {
        let server = try await ServerHarness()
        try await server.test { client in
            let many = try JSONEncoder().encode(EligibilityRequest(productIds: (0..<201).map { "p\($0)" }))
            #expect(try await client.send(.post, "/v1/subscribers/alice/eligibility", body: many).status == .badRequest)
            let control = try JSONEncoder().encode(EligibilityRequest(productIds: ["pro.monthly\u{7}"]))
            #expect(try await client.send(.post, "/v1/subscribers/alice/eligibility", body: control).status == .badRequest)
            let fine = try JSONEncoder().encode(EligibilityRequest(productIds: ["pro.monthly"]))
            #expect(try await client.send(.post, "/v1/subscribers/alice/eligibility", body: fine).status == .ok)
        }
    }

    /// An admin body must say it is JSON and hold only the keys its action knows: a typo'd key was
    /// dropped, and the action done without it.
    @Test func anAdminBodyIsReadStrictly() async throws {
        let server = try await ServerHarness()
        try await server.test { client in
            let path = "/admin/v1/apps/demo/subscribers/alice/grants"
            func post(_ json: String, contentType: String?) async throws -> TestResponse {
                var headers: HTTPFields = [.authorization: "Bearer \(ServerHarness.adminKey)"]
                if let contentType { headers[.contentType] = contentType }
                return try await client.execute(uri: path, method: .post, headers: headers, body: ByteBuffer(string: json))
            }
            let grant = #"{"entitlementId":"pro","duration":"P3D"}"#
            let plain = try await post(grant, contentType: "text/plain")
            #expect(plain.status == .unsupportedMediaType && plain.errorCode == "unsupportedMediaType")
            #expect(try await post(grant, contentType: nil).status == .unsupportedMediaType)
            let typo = try await post(#"{"entitlementId":"pro","durration":"P3D"}"#, contentType: "application/json")
            #expect(typo.status == .badRequest)
            #expect(typo.text.contains("unknown key durration"))
            let longReason = try await post(
                #"{"entitlementId":"pro","duration":"P3D","reason":"\#(String(repeating: "r", count: 4_097))"}"#, contentType: "application/json")
            #expect(longReason.status == .badRequest)
            // Nothing above was granted: alice is still unknown.
            #expect(try await post(grant, contentType: "application/json; charset=utf-8").status == .notFound)
        }
    }

    /// A body larger than `maxBodyBytes` is refused from its declared length, before it is read.
    @Test func aBodyOverTheConfiguredLimitIs413() async throws {
        let server = try await ServerHarness(limits: ServerLimits(maxBodyBytes: 1_024))
        try await server.test { client in
            let large = try JSONEncoder().encode(SignedTransactionRequest(signedTransaction: String(repeating: "a", count: 2_000)))
            let refused = try await client.send(.post, "/v1/subscribers/alice/transactions", body: large)
            #expect(refused.status == .contentTooLarge)
            #expect(refused.text.contains("limits.maxBodyBytes"))
            #expect(try await server.storage.evidenceCount() == 0)
        }
    }
}
