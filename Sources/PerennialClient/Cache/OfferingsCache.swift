import Foundation

/// Keeps the last offerings answer on disk so ``Perennial/offerings()`` still has a paywall to
/// show offline, after a relaunch too. Only the latest answer is kept, for the user it was about.
actor OfferingsCache {
    private let persistence: any PersistentStore
    private var cached: CachedOfferings?

    /// Loads the last answer; an unreadable file only means none (the server is asked).
    init(persistence: any PersistentStore) {
        self.persistence = persistence
        self.cached = (try? persistence.load()).flatMap { $0 }.flatMap { try? WireJSON.decoder().decode(CachedOfferings.self, from: $0) }
    }

    /// Keeps a fresh answer and returns it as the app sees it.
    func accept(_ response: OfferingsResponse, for appUserID: String, at now: Date) -> Offerings {
        let arrival = CachedOfferings(appUserID: appUserID, response: response, fetchedAt: now)
        cached = arrival
        if let data = try? WireJSON.encoder().encode(arrival) {
            // A failed write only costs the offline answer after a relaunch.
            try? persistence.save(data)
        }
        return Offerings(response, fetchedAt: now, isCached: false)
    }

    /// The last answer about `appUserID`, marked as cached; nil when there is none for them.
    func answer(for appUserID: String) -> Offerings? {
        guard let cached, cached.appUserID == appUserID else { return nil }
        return Offerings(cached.response, fetchedAt: cached.fetchedAt, isCached: true)
    }
}
