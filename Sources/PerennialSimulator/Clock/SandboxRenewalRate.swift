/// A sandbox tester's "Subscription Renewal Rate" (App Store Connect, and `subscriptionRenewalRate`
/// of the App Store Connect API): how many wall-clock minutes one subscription month lasts.
///
/// The raw values are Apple's, so a configuration copied from App Store Connect reads unchanged.
public enum SandboxRenewalRate: String, CaseIterable, Hashable, Sendable, Codable {
    case everyOneHour = "MONTHLY_RENEWAL_EVERY_ONE_HOUR"
    case everyThirtyMinutes = "MONTHLY_RENEWAL_EVERY_THIRTY_MINUTES"
    case everyFifteenMinutes = "MONTHLY_RENEWAL_EVERY_FIFTEEN_MINUTES"
    /// Apple's default for new sandbox testers.
    case everyFiveMinutes = "MONTHLY_RENEWAL_EVERY_FIVE_MINUTES"
    case everyThreeMinutes = "MONTHLY_RENEWAL_EVERY_THREE_MINUTES"

    /// The wall-clock seconds one subscription month lasts at this rate.
    public var secondsPerMonth: Int {
        switch self {
        case .everyOneHour: 3600
        case .everyThirtyMinutes: 1800
        case .everyFifteenMinutes: 900
        case .everyFiveMinutes: 300
        case .everyThreeMinutes: 180
        }
    }

    /// The seconds one subscription week lasts where Apple publishes it (SKTestSession's table,
    /// confirmed for the default rate by real sandbox data); nil where Apple is silent, so the
    /// time scale falls back to scaling the month linearly.
    var publishedSecondsPerWeek: Int? {
        switch self {
        case .everyOneHour: 900
        case .everyThirtyMinutes: 600
        case .everyFiveMinutes: 180
        case .everyFifteenMinutes, .everyThreeMinutes: nil
        }
    }
}
