import Foundation

/// Fans subscriber updates out to every `AsyncStream` handed out, and hands a new listener the
/// latest one, so a screen that appears after the purchase still learns the state.
///
/// A locked class rather than an actor so that ``Perennial/subscriberUpdates`` can register a
/// listener synchronously: with an actor, an update published between creating the stream and
/// registering it would be lost. The latest is replayed separately (``replayLatest(to:ifAbout:)``),
/// once the SDK knows who is signed in: after a user switch it belongs to the previous user.
final class SubscriberBroadcaster: @unchecked Sendable {
    // Invariant making `@unchecked Sendable` sound: every stored var is only touched under `lock`.
    private let lock = NSLock()
    private var listeners: [UUID: Listener] = [:]
    private var latest: Subscriber?

    private struct Listener {
        let continuation: AsyncStream<Subscriber>.Continuation
        /// Whether an update reached it since it subscribed: then the latest is no news to it.
        var heard = false
    }

    /// A new stream of updates, registered at once so that nothing published from now on is missed.
    func subscribe() -> (listener: UUID, stream: AsyncStream<Subscriber>) {
        let (stream, continuation) = AsyncStream.makeStream(of: Subscriber.self, bufferingPolicy: .bufferingNewest(16))
        let id = UUID()
        lock.withLock { listeners[id] = Listener(continuation: continuation) }
        continuation.onTermination = { [weak self] _ in
            guard let self else { return }
            _ = self.lock.withLock { self.listeners.removeValue(forKey: id) }
        }
        return (id, stream)
    }

    /// Sends the latest subscriber to `listener` when it is about `appUserID` and no update reached
    /// the listener since it subscribed.
    func replayLatest(to listener: UUID, ifAbout appUserID: String) {
        lock.withLock {
            guard let latest, latest.appUserID == appUserID, let waiting = listeners[listener], !waiting.heard else { return }
            listeners[listener]?.heard = true
            waiting.continuation.yield(latest)
        }
    }

    /// Sends `subscriber` to every listener.
    func publish(_ subscriber: Subscriber) {
        lock.withLock {
            latest = subscriber
            for id in listeners.keys {
                listeners[id]?.heard = true
                listeners[id]?.continuation.yield(subscriber)
            }
        }
    }

    /// Forgets the latest subscriber: its user signed out, so no new listener may be handed it.
    func forgetLatest() {
        lock.withLock { latest = nil }
    }

    /// Ends every stream (the SDK instance is being shut down).
    func finish() {
        let ended = lock.withLock {
            defer { listeners = [:] }
            return listeners.values.map(\.continuation)
        }
        for continuation in ended { continuation.finish() }
    }
}
