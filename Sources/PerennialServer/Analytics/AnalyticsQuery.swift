public import Foundation
public import PerennialCore

/// How long one point of an analytics series lasts. Days are UTC days; weeks start on Monday (ISO
/// 8601); months are calendar months in UTC.
public enum AnalyticsGranularity: String, Sendable, Hashable, CaseIterable, Codable {
    case day, week, month
}

/// What an analytics series is split by; `none` gives one overall series.
public enum AnalyticsBreakdown: String, Sendable, Hashable, CaseIterable, Codable {
    case none, product, subscriptionGroup, storefront, offerType
}

/// One request for figures: an app, an environment, a range of UTC days, a granularity, a
/// breakdown and a filter — what the dashboard's overview and the analytics API ask.
public struct AnalyticsQuery: Sendable, Hashable {
    /// The app's id in Perennial's URLs (``AppContext/id``).
    public var appID: String
    /// Production or Sandbox; the API and the dashboard default to ``AppContext/analyticsEnvironment``.
    public var environment: AppStoreEnvironment
    /// First day of the range (any instant of it; the range starts at that day's 00:00 UTC).
    public var from: Date
    /// Last day of the range, included.
    public var through: Date
    public var granularity: AnalyticsGranularity
    public var breakdown: AnalyticsBreakdown
    /// The counters kept: the report's figures are theirs alone, the overall series included.
    public var filter: AnalyticsFilter

    public init(
        appID: String, environment: AppStoreEnvironment = .production, from: Date, through: Date,
        granularity: AnalyticsGranularity = .day, breakdown: AnalyticsBreakdown = .none, filter: AnalyticsFilter = AnalyticsFilter()
    ) {
        self.appID = appID
        self.environment = environment
        self.from = from
        self.through = through
        self.granularity = granularity
        self.breakdown = breakdown
        self.filter = filter
    }

    /// Whether the MRR movement is left out: it is kept by product and storefront, where an
    /// introductory price ending is an expansion, and does not sum to the MRR of one offer type.
    var splitsByOfferType: Bool { breakdown == .offerType || !filter.offerTypes.isEmpty }
}
