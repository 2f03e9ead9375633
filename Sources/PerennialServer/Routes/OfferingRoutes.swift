import Hummingbird
import PerennialCore
import PerennialStorage
import PerennialWire

/// The admin API's door to an app's offerings (``OfferingActions``, docs/offerings.md): any admin
/// key reads them; adding, replacing and removing are actions.
struct OfferingRoutes: Sendable {
    let dependencies: ServerDependencies

    func add(to router: Router<PerennialRequestContext>) {
        let app = router.group("admin/v1/apps/:appId")
        let reads = app.group().add(middleware: dependencies.adminAuthentication(requiring: .readOnly))
        reads.get("offerings") { _, context in
            let offerings = try await dependencies.storage.offerings(appBundleID: try pathApp(context).bundleID)
            return JSONResponse.make(OfferingListResponse(offerings: offerings.map(Offering.init)))
        }
        reads.get("offerings/:offeringId") { _, context in
            let app = try pathApp(context)
            let id = offeringID(context)
            guard let offering = try await dependencies.storage.offerings(appBundleID: app.bundleID).first(where: { $0.id == id }) else {
                throw OfferingError.noSuchOffering(id, app: app.id)
            }
            return JSONResponse.make(Offering(offering))
        }
        app.action(.post, "offerings", dependencies: dependencies) { request, context in
            let app = try pathApp(context)
            return AddOffering(request: try await JSONResponse.decodeStrictly(OfferingRequest.self, from: request, context: context), app: app)
        } answer: {
            JSONResponse.make($0, status: .created)
        }
        app.action(.put, "offerings/:offeringId", dependencies: dependencies) { request, context in
            let app = try pathApp(context)
            let body = try await JSONResponse.decodeStrictly(OfferingRequest.self, from: request, context: context)
            return ReplaceOffering(offeringID: offeringID(context), request: body, app: app)
        } answer: {
            JSONResponse.make($0)
        }
        app.action(.delete, "offerings/:offeringId", dependencies: dependencies) { _, context in
            RemoveOffering(offeringID: offeringID(context), app: try pathApp(context))
        } answer: {
            JSONResponse.make($0)
        }
    }

    private func pathApp(_ context: PerennialRequestContext) throws(APIError) -> AppContext {
        try PathApp.from(context, in: dependencies.apps)
    }

    private func offeringID(_ context: PerennialRequestContext) -> String {
        context.parameters.get("offeringId") ?? ""
    }
}
