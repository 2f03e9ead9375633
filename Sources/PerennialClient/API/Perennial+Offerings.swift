import Foundation

extension Perennial {
    /// The offerings to build the paywall from, fresh from the server for the current user with
    /// the device's storefront and app version (``PerennialConfiguration/storefront``,
    /// ``PerennialConfiguration/appVersion``). When the server cannot be reached (no network, or
    /// it fails), the last answer for this user, with ``Offerings/isCached`` set — never another
    /// user's; without one, the server's error.
    public func offerings() async throws(PerennialError) -> Offerings {
        let appUserID = await identity.current()
        let storefront = await configuration.storefront?()
        do {
            let response = try await server.offerings(appUserID: appUserID, storefront: storefront, appVersion: configuration.appVersion)
            return await offeringsCache.accept(response, for: appUserID, at: configuration.clock.now())
        } catch {
            guard error.isTransient, let cached = await offeringsCache.answer(for: appUserID) else { throw .server(error) }
            configuration.log.info("offerings", "server not asked: \(PerennialError.server(error).code.rawValue); answering the cached offerings")
            return cached
        }
    }

    /// Reports that the paywall built from `offerings` is on screen, when an experiment chose it:
    /// the experiment's results count the user from their first report (docs/experiments.md).
    /// Does nothing for offerings no experiment chose. Not queued when offline — the SDK's
    /// durable queue is for purchases — so call it each time the paywall is shown; the server
    /// keeps the first.
    public func recordPaywallShown(_ offerings: Offerings) async throws(PerennialError) {
        guard let experiment = offerings.experiment else { return }
        let appUserID = await identity.current()
        do {
            _ = try await server.recordExposure(experimentID: experiment.id, appUserID: appUserID)
        } catch {
            throw .server(error)
        }
    }
}
