import Foundation
import PerennialAppStore
import PerennialCore
import Testing

/// The environment hint is read from the payload without parsing it, and matches what the payload
/// says wherever Apple's shapes put it; anything unreadable gives no hint.
@Suite struct ClaimedEnvironmentTests {
    static func jws(_ payload: String) -> String {
        [Base64URL.encode(Data(#"{"alg":"ES256"}"#.utf8)), Base64URL.encode(Data(payload.utf8)), "c2ln"].joined(separator: ".")
    }

    @Test(arguments: [
        (#"{"notificationType":"SUBSCRIBED","data":{"bundleId":"b","environment":"Sandbox"},"version":"2.0"}"#, "Sandbox"),
        (#"{"transactionId":"1","environment":"Production"}"#, "Production"),
        (#"{"summary":{"environment" : "Sandbox"}}"#, "Sandbox"),
        (#"{"receiptType":"Xcode","bundleId":"b"}"#, "Xcode"),
        (#"{"note":"environment","appData":{"environment":"LocalTesting"}}"#, "LocalTesting"),
        (#"{"note":"say \"environment\":\"Production\" here","environment":"Sandbox"}"#, "Sandbox"),
    ])
    func theHintIsWhatThePayloadSays(payload: String, expected: String) {
        #expect(AppEvidenceVerifier.claimedEnvironment(of: Self.jws(payload)) == AppStoreEnvironment(rawValue: expected))
    }

    @Test(arguments: ["not a jws", "a.b", "a.!!!.c", Self.jws(#"{"bundleId":"b"}"#), Self.jws(#"{"environment":7}"#)])
    func unreadablePayloadsGiveNoHint(text: String) {
        #expect(AppEvidenceVerifier.claimedEnvironment(of: text) == nil)
    }
}
