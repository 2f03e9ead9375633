import Hummingbird
import PerennialCore
import PerennialStorage
import PerennialWire

extension ClientRoutes {
    /// `GET /v1/subscribers/{appUserId}/offerings?storefront=&appVersion=`: the offering chosen
    /// for the user on this device now (``PerennialCore/OfferingChoice``, the audience from the
    /// user's records at the server's clock) and every offering of the app; while an experiment
    /// runs, a user in its audience gets their variant's offering, and the answer names both.
    func addOfferings(to subscribers: RouterGroup<PerennialRequestContext>) {
        subscribers.get(":appUserId/offerings") { request, context in
            let (app, user) = try context.client()
            let query = request.uri.queryParameters
            let offeringContext = try Self.offeringContext(storefront: query.get("storefront"), appVersion: query.get("appVersion"))
            let offerings = try await dependencies.storage.offerings(appBundleID: app.bundleID)
            let view = try await dependencies.pipeline(for: app).view(of: user, now: dependencies.clock.now)
            let experiments = try await dependencies.storage.experiments(appBundleID: app.bundleID)
            // An experiment's variant decides when the user takes part and its offering still exists.
            let assigned = experiments.lazy.compactMap { experiment in
                ExperimentAssignment.variant(of: user.rawValue, in: experiment, context: offeringContext, subscriber: view).map { (experiment, $0) }
            }.first { _, variant in offerings.contains { $0.id == variant.offeringID } }
            let retention = try await dependencies.retentionChoice(of: user, app: app, view: view)
            // A retention rule's offering comes first: the user is about to leave, whatever the experiment.
            let retained = retention?.offeringID.flatMap { id in offerings.first { $0.id == id }?.id }
            let current = retained ?? assigned?.1.offeringID ?? OfferingChoice.current(among: offerings, in: offeringContext, subscriber: view)?.id
            // Each offering's metadata is read from its stored text once, the current one's too.
            let answered = offerings.map(Offering.init)
            return JSONResponse.make(
                OfferingsResponse(
                    current: answered.first { $0.id == current }, offerings: answered,
                    experiment: retained == nil ? assigned.map { OfferingsExperiment(id: $0.id, variant: $1.id) } : nil,
                    retention: retention.map { OfferingsRetention($0, offeringID: retained) }))
        }
    }

    /// The device the app describes; a value it sends must be well formed (an unknown storefront
    /// is not an error: it matches only offerings for every storefront).
    static func offeringContext(storefront: String?, appVersion: String?) throws(APIError) -> OfferingContext {
        var context = OfferingContext()
        if let text = storefront {
            guard let storefront = OfferingContext.storefront(text) else {
                throw APIError.malformed("storefront must be a three-letter App Store code such as USA (got '\(text.prefix(20))')")
            }
            context.storefront = storefront
        }
        if let text = appVersion {
            guard let version = AppVersion(text) else {
                throw APIError.malformed("appVersion must be dotted numbers such as 2.1.0 (got '\(text.prefix(40))')")
            }
            context.appVersion = version
        }
        return context
    }
}
