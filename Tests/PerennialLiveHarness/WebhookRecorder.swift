import Foundation
public import Hummingbird
import PerennialServer

/// A webhook endpoint for servers under test: it records every delivery as it arrives (before
/// answering, so a delivery whose sender dies mid-request still counts as seen) and answers 204
/// after `delay`. While ``isHolding``, requests that arrive are recorded but not answered until
/// ``release()``, which keeps deliveries in flight for as long as a test needs to kill their
/// sender in the middle of one. While ``isDown``, it answers 503 and records nothing, as a
/// receiver that is down.
public actor WebhookRecorder {
    /// One request as the receiver saw it.
    public struct Delivery: Sendable {
        public let eventID: String
        /// The body's `type` (an event kind, `retentionRuleTriggered`, …).
        public let type: String
        public let appUserID: String
        public let transactionID: String?
        public let signatureIsValid: Bool
    }

    /// The parts of the body the tests check (docs/webhooks.md).
    private struct Body: Decodable {
        struct Event: Decodable {
            let transactionID: String?
        }

        let id: String
        let type: String
        let appUserId: String
        let event: Event
    }

    public let secret: String
    public let delay: Duration
    public private(set) var deliveries: [Delivery] = []
    /// Event ids whose request arrived and has not been answered yet.
    public private(set) var inFlight: Set<String> = []
    /// Bodies that were not a webhook payload.
    public private(set) var unreadable = 0
    /// Whether requests are refused with 503.
    public private(set) var isDown = false
    /// Requests refused while down.
    public private(set) var refused = 0
    /// Whether requests that arrive wait for ``release()`` before they are answered.
    public private(set) var isHolding: Bool
    private var waitingForRelease: [CheckedContinuation<Void, Never>] = []

    public init(secret: String, delay: Duration, holding: Bool = false) {
        self.secret = secret
        self.delay = delay
        self.isHolding = holding
    }

    /// Answers the held requests (each after `delay`) and stops holding new ones.
    public func release() {
        isHolding = false
        for request in waitingForRelease { request.resume() }
        waitingForRelease = []
    }

    /// Takes the receiver down (503 to everything) or brings it back.
    public func setDown(_ down: Bool) {
        isDown = down
    }

    /// The application serving `POST /hooks`.
    public nonisolated func application() -> some ApplicationProtocol {
        let router = Router()
        router.post("/hooks") { request, _ -> Response in
            if await self.refuseWhileDown() { return Response(status: .serviceUnavailable) }
            let body = try await request.body.collect(upTo: 1 << 20)
            let bytes = Data(body.readableBytesView)
            let signature = request.headers.first { $0.name.canonicalName == WebhookSignature.headerName.lowercased() }?.value
            guard let eventID = await self.arrived(bytes, signature: signature) else { return Response(status: .badRequest) }
            await self.waitForRelease()
            try await Task.sleep(for: self.delay)
            await self.answered(eventID)
            return Response(status: .noContent)
        }
        return Application(router: router, configuration: ApplicationConfiguration(address: .hostname("127.0.0.1", port: 0)))
    }

    private func refuseWhileDown() -> Bool {
        if isDown { refused += 1 }
        return isDown
    }

    private func arrived(_ bytes: Data, signature: String?) -> String? {
        guard let body = try? JSONDecoder().decode(Body.self, from: bytes) else {
            unreadable += 1
            return nil
        }
        var valid = false
        if let signature, let parsed = try? WebhookSignature(header: signature) {
            valid = (try? parsed.verify(body: bytes, secret: secret, now: Date())) != nil
        }
        deliveries.append(
            Delivery(eventID: body.id, type: body.type, appUserID: body.appUserId, transactionID: body.event.transactionID, signatureIsValid: valid))
        inFlight.insert(body.id)
        return body.id
    }

    private func waitForRelease() async {
        guard isHolding else { return }
        await withCheckedContinuation { waitingForRelease.append($0) }
    }

    private func answered(_ eventID: String) {
        inFlight.remove(eventID)
    }
}
