import Foundation
import Hummingbird
import PerennialCore

/// The analytics API (any admin key, read-only included): an app's figures over a range of days as
/// JSON, or as CSV with `Accept: text/csv`; the cohort table alone at `/metrics/cohorts`.
struct AnalyticsRoutes: Sendable {
    let dependencies: ServerDependencies

    func add(to router: Router<PerennialRequestContext>) {
        let apps = router.group("admin/v1/apps").add(middleware: dependencies.adminAuthentication(requiring: .readOnly))
        apps.get(":appId/metrics") { request, context in
            let report = try await dependencies.analytics.report(try query(request, context))
            return wantsCSV(request) ? AnalyticsCSV.response(AnalyticsCSV.series(report)) : JSONResponse.make(AnalyticsResponse(report))
        }
        apps.get(":appId/metrics/cohorts") { request, context in
            let report = try await dependencies.analytics.report(try query(request, context))
            let response = AnalyticsResponse(report)
            return wantsCSV(request) ? AnalyticsCSV.response(AnalyticsCSV.cohorts(report)) : JSONResponse.make(["cohorts": response.cohorts])
        }
    }

    private func wantsCSV(_ request: Request) -> Bool {
        request.headers[.accept]?.contains("text/csv") == true
    }

    /// The query from the path and `?environment=&from=&through=&granularity=&breakdown=`, and the
    /// filter's `&product=&storefront=&offerType=` lists; the range defaults to the 30 days ending today.
    private func query(_ request: Request, _ context: PerennialRequestContext) throws(APIError) -> AnalyticsQuery {
        let parameters = request.uri.queryParameters
        guard let appID = context.parameters.get("appId") else { throw .notFound("no app in the path") }
        let environment = try Self.environment(parameters.get("environment"), default: dependencies.apps.app(id: appID)?.analyticsEnvironment ?? .production)
        let today = AnalyticsCounters.start(ofDay: AnalyticsCounters.day(of: dependencies.clock.now))
        let through = try day(parameters.get("through"), name: "through") ?? today
        let from = try day(parameters.get("from"), name: "from") ?? through.addingTimeInterval(-29 * 86_400)
        let granularity = try choice(parameters.get("granularity"), name: "granularity", default: AnalyticsGranularity.day)
        let breakdown = try choice(parameters.get("breakdown"), name: "breakdown", default: AnalyticsBreakdown.none)
        let filter = AnalyticsFilter(lists: parameters.get("product"), storefronts: parameters.get("storefront"), offerTypes: parameters.get("offerType"))
        return AnalyticsQuery(
            appID: appID, environment: environment, from: from, through: through, granularity: granularity, breakdown: breakdown, filter: filter)
    }

    /// The environment an analytics query names, `Production` or `Sandbox` as Apple spells them (the
    /// dashboard's overview reads the same rule): any other text would show an empty report.
    static func environment(_ text: String?, default value: AppStoreEnvironment) throws(APIError) -> AppStoreEnvironment {
        guard let text else { return value }
        guard text == AppStoreEnvironment.production.rawValue || text == AppStoreEnvironment.sandbox.rawValue else {
            throw .malformed("environment must be Production or Sandbox, not \(text)")
        }
        return AppStoreEnvironment(rawValue: text)
    }

    private func day(_ text: String?, name: String) throws(APIError) -> Date? {
        guard let text else { return nil }
        guard let date = AnalyticsDay.date(text) else { throw .malformed("\(name) must be a date like 2026-01-31, not \(text)") }
        return date
    }

    private func choice<T: RawRepresentable & CaseIterable>(_ text: String?, name: String, default value: T) throws(APIError) -> T
    where T.RawValue == String {
        guard let text else { return value }
        guard let parsed = T(rawValue: text) else {
            throw .malformed("\(name) must be one of \(T.allCases.map(\.rawValue).joined(separator: ", ")), not \(text)")
        }
        return parsed
    }
}
