import Foundation
import PerennialAppStore
import PerennialCore
import Testing

/// Truncated, random and mutated inputs never crash the verifier and always end in a typed error
/// (or, for a mutation that changes nothing the signature covers, in the original payload).
struct JWSRobustnessTests {
    @Test(arguments: ["", ".", "..", "...", "a.b", "a..c", ".b.c", "a.b.", "a.b.c", "a.b.c.d", "!!!.???.***", "e30.e30.e30"])
    func garbageIsMalformed(text: String) async throws {
        let pki = try JWSTestPKI.generate()
        let error = await #expect(throws: JWSVerificationError.self) {
            try await JWSVerifier(trustedRoots: [pki.root]).verify(text)
        }
        guard case .malformed = error else {
            Issue.record("expected malformed for \(text), got \(String(describing: error))")
            return
        }
    }

    @Test(arguments: [
        ("a.b", "a compact JWS has 3 dot-separated segments, found 2"),
        ("a.b.c.d", "a compact JWS has 3 dot-separated segments, found 4 or more"),
        ("..", "a compact JWS segment is empty"), (".b.c", "a compact JWS segment is empty"),
        ("a..c", "a compact JWS segment is empty"), ("a.b.", "a compact JWS segment is empty"),
    ])
    func segmentsAreCountedOnTheDots(text: String, reason: String) {
        #expect(throws: JWSVerificationError.malformed(reason)) { try JWSDecoding.decodeUnverified(text) }
    }

    @Test func everyTruncationIsRejected() async throws {
        let pki = try JWSTestPKI.generate()
        let verifier = JWSVerifier(trustedRoots: [pki.root])
        let compact = try pki.sign(payloadJSON: JWSTestPKI.payload())
        _ = try await verifier.verify(compact)
        for length in stride(from: 0, to: compact.utf8.count, by: 7) {
            let truncated = String(decoding: compact.utf8.prefix(length), as: UTF8.self)
            await #expect(throws: JWSVerificationError.self, "truncated to \(length)") { try await verifier.verify(truncated) }
        }
    }

    @Test func randomTextIsRejected() async throws {
        let pki = try JWSTestPKI.generate()
        let verifier = JWSVerifier(trustedRoots: [pki.root])
        var random = SeededRandomNumberGenerator(seed: 0x0005_1A7E)
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.+/= {}\"é")
        for _ in 0..<300 {
            let length = Int.random(in: 0..<400, using: &random)
            let text = String((0..<length).map { _ in alphabet.randomElement(using: &random) ?? "." })
            await #expect(throws: JWSVerificationError.self) { try await verifier.verify(text) }
        }
    }

    @Test func mutationsOfAValidJWSNeverPassWithAnotherPayload() async throws {
        let pki = try JWSTestPKI.generate()
        let verifier = JWSVerifier(trustedRoots: [pki.root])
        let compact = try pki.sign(payloadJSON: JWSTestPKI.payload())
        _ = try await verifier.verify(compact)
        var random = SeededRandomNumberGenerator(seed: 0xF022)
        let replacements = Array("Aa0-_.+/=~ \u{0}".utf8)
        var rejected = 0
        for round in 0..<400 {
            var bytes = Array(compact.utf8)
            for _ in 0...(round % 3) {
                let index = Int.random(in: 0..<bytes.count, using: &random)
                bytes[index] = replacements.randomElement(using: &random) ?? 0
            }
            do {
                let verified = try await verifier.verify(String(decoding: bytes, as: UTF8.self))
                // Only a change to bits base64 ignores can pass, and then nothing signed changed.
                #expect(verified.payload == JWSTestPKI.payload())
            } catch {
                rejected += 1
            }
        }
        #expect(rejected > 300)
    }
}
