import AsyncHTTPClient
import Foundation
import NIOCore
import PerennialAppStore
import PerennialCore
import NIOHTTP1
import NIOFoundationCompat

/// One call of the App Store to the developer's Get Retention Message endpoint: the signed request
/// (``DecodedRealtimeRequestBody`` under the simulator's Apple-shaped chain, `{"signedPayload"}`)
/// POSTed within Apple's time limit, and the answer as Apple reads it.
struct RealtimeMessagingCall: Sendable {
    let pki: SimulatorPKI
    let environment: AppStoreEnvironment
    let appAppleID: Int64?
    /// How long the App Store waits for the endpoint before showing the default message.
    let timeout: Duration

    /// What came back: the decoded answer, or why there is none; and how long it took.
    struct Outcome: Sendable {
        let answer: Result<RealtimeResponseBody, Failure>
        let duration: Duration
    }

    struct Failure: Error, Sendable, CustomStringConvertible {
        let description: String
    }

    /// The `signedPayload` of a request about the subscription, signed now.
    func signedRequest(originalTransactionID: String, productID: String, locale: String, now: Date) throws(SimulatorWireError) -> String {
        try pki.sign(
            DecodedRealtimeRequestBody(
                originalTransactionId: originalTransactionID, appAppleId: environment == .production ? appAppleID : nil, productId: productID,
                userLocale: locale, requestIdentifier: UUID().uuidString.lowercased(), environment: AppleEnvironment(simulated: environment),
                signedDate: now))
    }

    func call(
        _ url: URL, originalTransactionID: String, productID: String, locale: String, now: Date
    ) async -> Outcome {
        let started = ContinuousClock.now
        do {
            let signed = try signedRequest(originalTransactionID: originalTransactionID, productID: productID, locale: locale, now: now)
            let body = try JSONEncoder().encode(RealtimeRequestBody(signedPayload: signed))
            var http = HTTPClientRequest(url: url.absoluteString)
            http.method = .POST
            http.headers.add(name: "Content-Type", value: "application/json")
            http.body = .bytes(ByteBuffer(bytes: body))
            let response = try await HTTPClient.shared.execute(http, timeout: .nanoseconds(timeout.nanoseconds))
            let bytes = try await response.body.collect(upTo: 1 << 16)
            let duration = ContinuousClock.now - started
            guard response.status == .ok else {
                return Outcome(answer: .failure(Failure(description: "the endpoint answered HTTP \(response.status.code)")), duration: duration)
            }
            guard duration <= timeout else {
                return Outcome(answer: .failure(Failure(description: "the endpoint answered after \(duration)")), duration: duration)
            }
            do {
                return Outcome(answer: .success(try JSONDecoder().decode(RealtimeResponseBody.self, from: Data(buffer: bytes))), duration: duration)
            } catch {
                return Outcome(answer: .failure(Failure(description: "the answer is not a RealtimeResponseBody: \(error)")), duration: duration)
            }
        } catch let error as HTTPClientError where error == .deadlineExceeded {
            // Too slow, as an answer after the limit is: the App Store stopped waiting.
            return Outcome(answer: .failure(Failure(description: "the endpoint answered after more than \(timeout)")), duration: ContinuousClock.now - started)
        } catch {
            return Outcome(answer: .failure(Failure(description: "the endpoint did not answer: \(error)")), duration: ContinuousClock.now - started)
        }
    }
}

extension Duration {
    fileprivate var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}
