/// Whether the subscriber may still get an introductory offer in one subscription group.
///
/// Apple grants one introductory offer (free trial, pay-as-you-go, pay-up-front) per group and
/// Apple ID; only the purchase history says whether it was used — never the app's own flag, which
/// a reinstall resets.
public struct IntroOfferEligibility: Hashable, Sendable, Codable {
    public var subscriptionGroupID: String
    public var isEligible: Bool

    public init(subscriptionGroupID: String, isEligible: Bool) {
        self.subscriptionGroupID = subscriptionGroupID
        self.isEligible = isEligible
    }
}
