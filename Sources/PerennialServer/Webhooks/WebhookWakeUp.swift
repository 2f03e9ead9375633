import Foundation

/// Wakes the webhook job as soon as an apply enqueues events, so a delivery starts within
/// milliseconds instead of at the next poll; the poll interval only covers what the nudge cannot
/// see (other processes' applies, retries coming due).
///
/// A nudge while nobody waits is remembered (once), so an event written just before the job goes
/// to sleep is not missed. An `NSLock` guards the state because `Synchronization.Mutex` needs
/// macOS 15 and the package supports macOS 14.
public final class WebhookWakeUp: @unchecked Sendable {
    private let lock = NSLock()
    private var pending = false
    private var waiter: CheckedContinuation<Void, Never>?

    public init() {}

    /// Wakes the waiting job, or the next wait if none is waiting.
    public func nudge() {
        lock.lock()
        let waiting = waiter
        waiter = nil
        if waiting == nil { pending = true }
        lock.unlock()
        waiting?.resume()
    }

    /// Returns at the next nudge, after `timeout`, or when the task is cancelled.
    func wait(upTo timeout: Duration) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { try? await Task.sleep(for: timeout) }
            group.addTask { await self.nudged() }
            await group.next()
            group.cancelAll()
        }
    }

    private func nudged() async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                lock.lock()
                if pending || Task.isCancelled {
                    pending = false
                    lock.unlock()
                    continuation.resume()
                } else {
                    waiter = continuation
                    lock.unlock()
                }
            }
        } onCancel: {
            lock.lock()
            let waiting = waiter
            waiter = nil
            lock.unlock()
            waiting?.resume()
        }
    }
}
