/// Which of Apple's two notification formats a delivery carried; an app may configure one URL for
/// each, and Apple retries each on its own schedule.
public enum NotificationVersion: String, Hashable, Sendable, Codable {
    case v2
    case v1
}
