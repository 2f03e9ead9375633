/// Apple's `priceIncreaseStatus` / legacy `price_consent_status`, kept open.
public struct ApplePriceIncreaseStatus: OpenIntegerValue {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Notified, no answer yet.
    public static let customerHasNotResponded: Self = 0
    /// Consented, or notified of an increase that needs no consent.
    public static let customerConsentedOrWasNotifiedWithoutNeedingConsent: Self = 1
}
