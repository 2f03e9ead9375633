import Foundation

/// Fans subscriber updates out to every `AsyncStream` handed out, replaying the latest to a new
/// listener so a screen that appears after the purchase still learns the state.
///
/// A locked class rather than an actor so that ``Perennial/subscriberUpdates`` can register a
/// listener synchronously: with an actor, an update published between creating the stream and
/// registering it would be lost.
final class SubscriberBroadcaster: @unchecked Sendable {
    // Invariant making `@unchecked Sendable` sound: every stored var is only touched under `lock`.
    private let lock = NSLock()
    private var listeners: [UUID: AsyncStream<Subscriber>.Continuation] = [:]
    private var latest: Subscriber?

    /// A new stream of updates, starting with the latest known subscriber.
    func subscribe() -> AsyncStream<Subscriber> {
        let (stream, continuation) = AsyncStream.makeStream(of: Subscriber.self, bufferingPolicy: .bufferingNewest(16))
        let id = UUID()
        lock.withLock {
            listeners[id] = continuation
            if let latest { continuation.yield(latest) }
        }
        continuation.onTermination = { [weak self] _ in
            guard let self else { return }
            _ = self.lock.withLock { self.listeners.removeValue(forKey: id) }
        }
        return stream
    }

    /// Sends `subscriber` to every listener.
    func publish(_ subscriber: Subscriber) {
        lock.withLock {
            latest = subscriber
            for continuation in listeners.values { continuation.yield(subscriber) }
        }
    }

    /// Ends every stream (the SDK instance is being shut down).
    func finish() {
        let ended = lock.withLock {
            defer { listeners = [:] }
            return Array(listeners.values)
        }
        for continuation in ended { continuation.finish() }
    }
}
