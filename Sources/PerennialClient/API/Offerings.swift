public import Foundation

/// What the app may sell now (``Perennial/offerings()``): the offering the server chose for this
/// user and device, and every offering of the app, as the operator last defined them — so a
/// paywall changes without an app release.
public struct Offerings: Sendable, Equatable {
    /// The offering to show; nil when the server has none for this user (show the app's built-in
    /// paywall).
    public let current: Offering?
    /// Every offering of the app, by id, for screens that show a specific one.
    public let all: [Offering]
    /// When the server gave this answer, on the device's clock.
    public let fetchedAt: Date
    /// True when the server could not be reached and this is the last answer it gave for the
    /// user: the offerings may have changed since ``fetchedAt``.
    public let isCached: Bool
    /// The running experiment and variant that chose ``current``; nil when none did. Report the
    /// paywall with ``Perennial/recordPaywallShown(_:)`` so the experiment's results count it.
    public let experiment: OfferingsExperiment?
    /// A retention rule's choice for this user (docs/retention-rules.md): ``current`` is its
    /// offering when it names one, and its offer is what to present with StoreKit; nil when no
    /// rule's choice holds.
    public let retention: OfferingsRetention?

    /// The server's `response`, as the app sees it.
    init(_ response: OfferingsResponse, fetchedAt: Date, isCached: Bool) {
        current = response.current
        all = response.offerings
        self.fetchedAt = fetchedAt
        self.isCached = isCached
        experiment = response.experiment
        retention = response.retention
    }

    /// The offering named `id`, to show a specific paywall (an upgrade screen) whatever the
    /// current one is.
    public func offering(id: String) -> Offering? {
        all.first { $0.id == id }
    }
}
