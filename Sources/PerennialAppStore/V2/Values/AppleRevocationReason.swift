/// Apple's `revocationReason` / legacy `cancellation_reason` (1 an issue with the app, 0 other), kept open.
public struct AppleRevocationReason: OpenIntegerValue {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// The customer cited an actual or perceived issue with the app.
    public static let refundedDueToIssue: Self = 1
    /// Any other reason, e.g. an accidental purchase.
    public static let refundedForOtherReason: Self = 0
}
