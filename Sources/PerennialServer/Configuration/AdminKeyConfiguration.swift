public import PerennialCore

/// One named admin key, as the configuration file's `"adminKeys"` lists them:
/// `{"name": "support-desk", "key": "env:SUPPORT_KEY", "scope": "support"}`.
///
/// Named so that every admin action is attributed to a key (a person or a tool), and scoped so
/// that a dashboard or a support desk can be given less than everything.
public struct AdminKeyConfiguration: Sendable, Codable, Equatable {
    /// Who holds the key; it appears in the logs of every admin action taken with it.
    public var name: String
    public var key: SecretValue
    public var scope: AdminScope

    public init(name: String, key: SecretValue, scope: AdminScope) {
        self.name = name
        self.key = key
        self.scope = scope
    }
}

/// What an admin key may do. Each scope includes the ones before it.
public enum AdminScope: String, Sendable, Comparable, ClosedValue {
    /// Read subscribers, timelines and webhook deliveries; change nothing.
    case readOnly
    /// Also act on one subscriber as a support desk does.
    case support
    /// Everything, webhook redelivery and replay included; the single `"adminKey"` is this.
    case full

    public static func < (lhs: AdminScope, rhs: AdminScope) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}
