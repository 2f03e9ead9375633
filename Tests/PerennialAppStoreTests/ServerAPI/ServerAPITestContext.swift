import Crypto
import Foundation
import PerennialAppStore

/// A client wired to a scripted transport, a pinned clock and a recording retrier.
struct ServerAPITestContext {
    static let now = Date(timeIntervalSince1970: 1_700_000_000)
    static let policy = RetryPolicy(maxAttempts: 3, baseDelay: .milliseconds(500), maxDelay: .seconds(4), maxRetryAfter: .seconds(60))

    let privateKey = P256.Signing.PrivateKey()
    let transport: ScriptedTransport
    let sleeps = SleepRecorder()
    let client: AppStoreServerAPIClient

    init(_ replies: [ScriptedTransport.Reply], baseURL: URL? = URL(string: "https://api.test"), policy: RetryPolicy = Self.policy) {
        transport = ScriptedTransport(replies)
        let configuration = AppStoreServerAPIConfiguration(
            key: AppStoreConnectKey(privateKey: privateKey, keyID: "KEY123"),
            issuerID: "57246542-96fe-1a63-e053-0824d011072a",
            bundleID: "com.example.app",
            environment: .sandbox,
            baseURL: baseURL
        )
        client = AppStoreServerAPIClient(
            configuration: configuration, transport: transport, retry: sleeps.retrier(policy), now: { Self.now })
    }
}

/// A JSON error body as Apple sends it.
func appleError(_ code: Int, status: Int, headers: [(name: String, value: String)] = []) -> ScriptedTransport.Reply {
    .text(#"{"errorCode":\#(code),"errorMessage":"message \#(code)"}"#, status: status, headers: headers)
}
