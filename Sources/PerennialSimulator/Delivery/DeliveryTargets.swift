public import Foundation

/// Where the simulated App Store POSTs notifications: App Store Connect's two server URLs.
///
/// Each format goes only to its own URL and is retried on its own; a missing URL means that
/// format is not sent at all (the notification is still listed in history).
public struct DeliveryTargets: Hashable, Sendable {
    /// Receives `{"signedPayload": …}` bodies.
    public var v2: URL?
    /// Receives V1 JSON bodies (with `unified_receipt` and `password`).
    public var v1: URL?

    /// Targets; none by default, so an in-process test sends nothing over the network.
    public init(v2: URL? = nil, v1: URL? = nil) {
        self.v2 = v2
        self.v1 = v1
    }

    /// The URL for `version`.
    public func url(for version: NotificationVersion) -> URL? {
        version == .v2 ? v2 : v1
    }
}

/// Which of Apple's two notification formats a delivery carried; an app may configure one URL for
/// each, and Apple retries each on its own schedule.
public enum NotificationVersion: String, Hashable, Sendable, Codable {
    case v2
    case v1
}
