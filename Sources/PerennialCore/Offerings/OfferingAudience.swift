/// Where a user stands with the app's subscriptions, for targeting an offering: a paywall for
/// someone who never subscribed (an introductory offer) is not the one for someone who left (a
/// win-back) or someone subscribed now (an upgrade).
public enum OfferingAudience: String, Hashable, Sendable, Codable, CaseIterable {
    /// Never had an auto-renewable subscription of the app, paid or trial.
    case new
    /// Had one, and none gives access now (expired, refunded, or in billing retry without grace).
    case lapsed
    /// A subscription gives access now (active or in its grace period).
    case active

    /// The audience of the subscriber `view` describes, at the view's own instant: the view's
    /// statuses are already judged at it, so no clock is read here. One-time purchases and
    /// entitlements granted by hand are not subscriptions and leave a user `new`.
    public init(of view: SubscriberView) {
        if view.subscriptions.contains(where: \.grantsAccess) {
            self = .active
        } else {
            self = view.subscriptions.isEmpty ? .new : .lapsed
        }
    }
}
