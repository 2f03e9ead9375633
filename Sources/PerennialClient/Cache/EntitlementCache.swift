import Foundation

/// The last server answer, judged on the server's clock (pure; ``SubscriberCache`` persists it).
///
/// The server's time now is estimated as the answer's `serverTime` plus the time elapsed since it
/// arrived, measured on the device's monotonic clock, which the user cannot set. Setting the wall
/// clock forward or back therefore changes neither `isActive` nor staleness. After a reboot (another
/// boot id, or a monotonic clock below the value recorded) the monotonic clock says nothing of the
/// time between, and the elapsed time falls back to the wall clock, never negative, so the estimate
/// still never goes before the last answer's `serverTime`. (Comparing uptimes alone, an answer
/// kept across a reboot came back to life once the new boot's uptime passed the old one's.)
struct EntitlementCache: Sendable {
    let staleAfter: TimeInterval
    private(set) var cached: CachedSubscriber?

    init(staleAfter: TimeInterval, cached: CachedSubscriber? = nil) {
        self.staleAfter = staleAfter
        self.cached = cached
    }

    /// Keeps `response` unless the cache holds a newer answer for the same user (uploads run
    /// concurrently and answer out of order; the newest server state must win). Returns whether it
    /// was kept.
    mutating func accept(_ response: SubscriberResponse, deviceNow: Date, uptime: TimeInterval, boot: String? = nil) -> Bool {
        if let cached, cached.response.subscriber.appUserID == response.subscriber.appUserID,
            cached.response.serverTime > response.serverTime
        {
            return false
        }
        cached = CachedSubscriber(response: response, receivedAt: deviceNow, receivedUptime: uptime, receivedBoot: boot)
        return true
    }

    /// The cached subscriber for `appUserID` judged now, or nil when the cache is about someone else
    /// or empty.
    func subscriber(for appUserID: String, deviceNow: Date, uptime: TimeInterval, boot: String? = nil) -> Subscriber? {
        guard let cached, cached.response.subscriber.appUserID == appUserID else { return nil }
        return Self.judge(cached, deviceNow: deviceNow, uptime: uptime, boot: boot, staleAfter: staleAfter)
    }

    /// A subscriber view of one answer judged at `deviceNow`, `uptime` of `boot` (nil: unknown).
    static func judge(_ cached: CachedSubscriber, deviceNow: Date, uptime: TimeInterval, boot: String?, staleAfter: TimeInterval) -> Subscriber {
        let elapsed: TimeInterval
        let sameBoot = cached.receivedBoot == nil || boot == nil || cached.receivedBoot == boot
        if sameBoot, uptime >= cached.receivedUptime {
            elapsed = uptime - cached.receivedUptime
        } else {
            elapsed = max(0, deviceNow.timeIntervalSince(cached.receivedAt))
        }
        let serverNow = cached.response.serverTime.addingTimeInterval(elapsed)
        return Subscriber(response: cached.response, serverNow: serverNow, isStale: elapsed > staleAfter)
    }
}
