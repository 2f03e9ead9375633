/// An `expect` step: what must have happened since the previous `expect` (or the start).
public struct ScenarioExpectation: Hashable, Sendable {
    /// The exact sequence of notifications emitted, each as `TYPE` or `TYPE/SUBTYPE`; nil when the
    /// step does not check notifications. Emission, not delivery: fault injection does not change it.
    public var notifications: [String]?
    /// The status each named subscription must have now.
    public var statuses: [String: SimulatedSubscriptionStatus]

    /// An expectation; checks nothing unless given.
    public init(notifications: [String]? = nil, statuses: [String: SimulatedSubscriptionStatus] = [:]) {
        self.notifications = notifications
        self.statuses = statuses
    }
}

/// One way the store did not meet an `expect` step.
public enum ScenarioExpectationMismatch: Hashable, Sendable, CustomStringConvertible {
    case notifications(expected: [String], actual: [String])
    case status(alias: String, expected: SimulatedSubscriptionStatus, actual: SimulatedSubscriptionStatus)

    public var description: String {
        switch self {
        case .notifications(let expected, let actual):
            "expected notifications [\(expected.joined(separator: ", "))], got [\(actual.joined(separator: ", "))]"
        case .status(let alias, let expected, let actual):
            "expected \"\(alias)\" to be \(expected.scenarioName), it is \(actual.scenarioName)"
        }
    }
}

extension SimulatedSubscriptionStatus {
    /// The status as scenario files spell it, Perennial's status names (`active`, `inGracePeriod`,
    /// `inBillingRetry`, `expired`, `revoked`).
    public var scenarioName: String {
        switch self {
        case .active: "active"
        case .gracePeriod: "inGracePeriod"
        case .billingRetry: "inBillingRetry"
        case .expired: "expired"
        case .revoked: "revoked"
        }
    }

    /// The status a scenario file names; nil for any other text.
    public init?(scenarioName: String) {
        guard let status = Self.allStatuses.first(where: { $0.scenarioName == scenarioName }) else { return nil }
        self = status
    }

    private static let allStatuses: [Self] = [.active, .gracePeriod, .billingRetry, .expired, .revoked]
}
