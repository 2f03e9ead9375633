public import Foundation

/// A user's first sight of an experiment's paywall: what the experiment's results count from.
public struct ExperimentExposure: Hashable, Sendable {
    public var user: AppUserID
    public var firstExposedAt: Date

    public init(user: AppUserID, firstExposedAt: Date) {
        self.user = user
        self.firstExposedAt = firstExposedAt
    }
}
