import Foundation
import PerennialServer
import Testing

@Suite struct WebhookSignatureTests {
    let body = Data(#"{"id":"evt_1","type":"renewed"}"#.utf8)
    let signedAt = Date(timeIntervalSince1970: 1_763_712_000)

    @Test func headerRoundTripsAndVerifies() throws {
        let signature = WebhookSignature(body: body, secret: "whsec_a", date: signedAt)
        #expect(signature.header.hasPrefix("t=1763712000,v1="))
        let parsed = try WebhookSignature(header: signature.header)
        #expect(parsed == signature)
        try parsed.verify(body: body, secret: "whsec_a", now: signedAt.addingTimeInterval(10))
    }

    @Test func matchesAnIndependentHMAC() {
        // HMAC-SHA256("key", "1.x") computed with openssl: printf '1.x' | openssl dgst -sha256 -hmac key
        let signature = WebhookSignature(body: Data("x".utf8), secret: "key", date: Date(timeIntervalSince1970: 1))
        #expect(signature.header == "t=1,v1=" + Self.opensslHMAC)
    }
    static let opensslHMAC = "fc4913c41a7bf793267e2a384f3261c9436ec2cd097bd745e7b0d99113f510ec"

    @Test func tamperedBodyWrongSecretAndReplayAreRefused() throws {
        let signature = WebhookSignature(body: body, secret: "whsec_a", date: signedAt)
        #expect(throws: WebhookSignatureError.mismatch) {
            try signature.verify(body: body + Data(" ".utf8), secret: "whsec_a", now: signedAt)
        }
        #expect(throws: WebhookSignatureError.mismatch) {
            try signature.verify(body: body, secret: "whsec_b", now: signedAt)
        }
        #expect(throws: WebhookSignatureError.outsideTolerance(ageSeconds: 301)) {
            try signature.verify(body: body, secret: "whsec_a", now: signedAt.addingTimeInterval(301))
        }
    }

    @Test(arguments: ["", "t=1", "v1=00", "t=x,v1=00", "t=1,v1=0g", "t=1,v1=abc", "garbage"])
    func malformedHeadersAreTypedErrors(header: String) {
        #expect(throws: WebhookSignatureError.malformedHeader(header)) { try WebhookSignature(header: header) }
    }
}

/// During a secret's rotation a delivery carries one signature per secret, so a receiver holding
/// either the new or the previous secret accepts it, and nobody else does.
@Suite struct WebhookSignatureRotationTests {
    @Test func bothSecretsVerifyDuringTheOverlap() throws {
        let body = Data(#"{"id":"evt_1"}"#.utf8)
        let at = Date(timeIntervalSince1970: 1_763_712_000)
        let signature = WebhookSignature(body: body, secrets: ["whsec_new", "whsec_old"], date: at)
        #expect(signature.header.components(separatedBy: ",v1=").count == 3)
        let parsed = try WebhookSignature(header: signature.header)
        #expect(parsed == signature)
        try parsed.verify(body: body, secret: "whsec_new", now: at)
        try parsed.verify(body: body, secret: "whsec_old", now: at)
        #expect(throws: WebhookSignatureError.mismatch) { try parsed.verify(body: body, secret: "whsec_other", now: at) }
        #expect(WebhookSignature(body: body, secrets: ["whsec_new"], date: at) == WebhookSignature(body: body, secret: "whsec_new", date: at))
    }
}
