import Foundation
import Hummingbird
import Logging
import ServiceLifecycle
import PerennialAppStore

/// The load tool's webhook endpoint (`perennial load --webhook-port`): answers 200 to every
/// delivery and tallies the `renewal` events by id, for a server started with
/// `serve --simulator --simulator-webhook http://127.0.0.1:PORT/`.
///
/// It does not check signatures (the webhook tests do); it only times arrivals.
struct WebhookReceiver: Sendable {
    private let group: ServiceGroup
    private let task: Task<Void, any Error>

    /// Starts listening on 127.0.0.1:`port` and returns once it accepts connections.
    static func start(port: Int, tally: WebhookTally) async throws -> WebhookReceiver {
        let router = Router()
        router.post("**") { request, _ -> HTTPResponse.Status in
            let clock = ContinuousClock()
            var request = request
            let body = Data((try await request.collectBody(upTo: 1 << 20)).readableBytesView)
            if (try? JSONFieldPeek.string(at: ["type"], in: body)) == "renewal", let id = try? JSONFieldPeek.string(at: ["id"], in: body) {
                tally.record(eventID: id, at: clock.now)
            }
            return .ok
        }
        let (listening, listener) = AsyncStream.makeStream(of: Void.self)
        var logger = Logger(label: "perennial.load.webhooks")
        logger.logLevel = .warning
        let application = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: port)),
            onServerRunning: { _ in listener.yield() }, logger: logger)
        let group = ServiceGroup(services: [application], gracefulShutdownSignals: [], logger: logger)
        let task = Task {
            defer { listener.finish() }
            try await group.run()
        }
        for await _ in listening { return WebhookReceiver(group: group, task: task) }
        try await task.value  // it stopped before listening: its error says why
        throw LoadError.webhookReceiver(port: port)
    }

    /// Stops listening, letting the server's open connections close.
    func stop() async {
        await group.triggerGracefulShutdown()
        _ = try? await task.value
    }
}
