import Hummingbird

/// The `{appId}` of an admin route's path, as the configured app it names.
enum PathApp {
    static func from(_ context: some RequestContext, in apps: AppRegistry) throws(APIError) -> AppContext {
        guard let id = context.parameters.get("appId"), let app = apps.app(id: id) else {
            throw .notFound("no app \(context.parameters.get("appId") ?? "") is configured")
        }
        return app
    }
}
