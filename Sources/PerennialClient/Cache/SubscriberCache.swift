import Foundation

/// The I/O around ``EntitlementCache``: reads the device clocks, writes the last answer to disk so
/// a cold start without network still answers, and publishes every newer answer to the app.
actor SubscriberCache {
    private var cache: EntitlementCache
    private let persistence: any PersistentStore
    private let clock: PerennialClock
    private let broadcaster: SubscriberBroadcaster

    /// Loads the last answer; an unreadable file just means no cached answer (the server is asked).
    init(persistence: any PersistentStore, staleAfter: TimeInterval, clock: PerennialClock, broadcaster: SubscriberBroadcaster) {
        let cached = (try? persistence.load()).flatMap { $0 }.flatMap { try? WireJSON.decoder().decode(CachedSubscriber.self, from: $0) }
        self.cache = EntitlementCache(staleAfter: staleAfter, cached: cached)
        self.persistence = persistence
        self.clock = clock
        self.broadcaster = broadcaster
    }

    /// Takes a server answer: keeps and publishes it when it is the newest, and returns the answer
    /// judged at its arrival either way (a purchase's result is its own answer).
    func accept(_ response: SubscriberResponse) -> Subscriber {
        let now = clock.now()
        let uptime = clock.uptime()
        let arrival = CachedSubscriber(response: response, receivedAt: now, receivedUptime: uptime)
        let view = EntitlementCache.judge(arrival, deviceNow: now, uptime: uptime, staleAfter: cache.staleAfter)
        if cache.accept(response, deviceNow: now, uptime: uptime) {
            if let data = try? WireJSON.encoder().encode(arrival) {
                // A failed write only costs the offline answer after a relaunch; the server stays the truth.
                try? persistence.save(data)
            }
            broadcaster.publish(view)
        }
        return view
    }

    /// The cached subscriber for `appUserID` judged now.
    func current(appUserID: String) -> Subscriber? {
        cache.subscriber(for: appUserID, deviceNow: clock.now(), uptime: clock.uptime())
    }
}
