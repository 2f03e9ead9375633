import Foundation

/// The I/O around ``EntitlementCache``: reads the device clocks, writes the last answer to disk so
/// a cold start without network still answers, and publishes every newer answer to the app.
actor SubscriberCache {
    private var cache: EntitlementCache
    private let persistence: any PersistentStore
    private let clock: PerennialClock
    private let broadcaster: SubscriberBroadcaster
    /// Who is signed in now: only answers about them are kept and published.
    private let currentUser: @Sendable () async -> String

    /// Loads the last answer; an unreadable or empty file just means no cached answer (the server
    /// is asked). With `verifier` (signed answers configured) the answer must verify again: a file
    /// edited on the device, or written before signing was configured, is discarded, not trusted.
    init(
        persistence: any PersistentStore, staleAfter: TimeInterval, clock: PerennialClock, broadcaster: SubscriberBroadcaster,
        verifier: AnswerVerifier?, currentUser: @escaping @Sendable () async -> String
    ) {
        let stored = (try? persistence.load()).flatMap { $0 }.flatMap { try? WireJSON.decoder().decode(CachedSubscriber.self, from: $0) }
        self.cache = EntitlementCache(staleAfter: staleAfter, cached: stored.flatMap { Self.trusted($0, verifier: verifier) })
        self.persistence = persistence
        self.clock = clock
        self.broadcaster = broadcaster
        self.currentUser = currentUser
    }

    /// `stored` when it may be used: as it is without a verifier; with one, only when it kept the
    /// server's signed bytes and their signature verifies.
    private static func trusted(_ stored: CachedSubscriber, verifier: AnswerVerifier?) -> CachedSubscriber? {
        guard let verifier else { return stored }
        guard let signed = stored.response.signed else { return nil }
        do {
            try verifier.check(signed)
        } catch {
            return nil
        }
        return stored
    }

    /// Takes a server answer: keeps and publishes it when it is the newest about the user signed
    /// in now, and returns the answer judged at its arrival either way (a purchase's result is its
    /// own answer). An answer about someone else — a purchase delivered for the user who made it,
    /// after another signed in — would otherwise replace the current user's answer and show the
    /// app the other user's entitlements.
    func accept(_ response: SubscriberResponse) async -> Subscriber {
        let isCurrentUser = await currentUser() == response.subscriber.appUserID
        let now = clock.now()
        let uptime = clock.uptime()
        let boot = clock.boot()
        let arrival = CachedSubscriber(response: response, receivedAt: now, receivedUptime: uptime, receivedBoot: boot)
        let view = EntitlementCache.judge(arrival, deviceNow: now, uptime: uptime, boot: boot, staleAfter: cache.staleAfter)
        if isCurrentUser, cache.accept(response, deviceNow: now, uptime: uptime, boot: boot) {
            if let data = try? WireJSON.encoder().encode(arrival) {
                // A failed write only costs the offline answer after a relaunch; the server stays the truth.
                try? persistence.save(data)
            }
            broadcaster.publish(view)
        }
        return view
    }

    /// Forgets the cached answer when it is about someone other than `appUserID`, who is signed in
    /// now: the previous user signed out, and nothing of theirs may be shown as the new user's —
    /// neither as the cached subscriber, nor as the update replayed to new listeners, nor after a
    /// relaunch (the file is emptied). Answers whether there was such an answer: the user changed.
    func forgetAnswersNotAbout(_ appUserID: String) -> Bool {
        guard let cached = cache.cached, cached.response.subscriber.appUserID != appUserID else { return false }
        cache = EntitlementCache(staleAfter: cache.staleAfter)
        // A failed write leaves the previous answer on disk, where it is served to no other user.
        try? persistence.save(Data())
        broadcaster.forgetLatest()
        return true
    }

    /// The cached subscriber for `appUserID` judged now.
    func current(appUserID: String) -> Subscriber? {
        cache.subscriber(for: appUserID, deviceNow: clock.now(), uptime: clock.uptime(), boot: clock.boot())
    }
}
