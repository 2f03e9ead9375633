/// The App Store offer a ``RetentionRule`` proposes: the app presents it with StoreKit (a
/// promotional offer it signs through the server, or a win-back offer), so it names the product
/// and Apple's offer id as configured in App Store Connect.
public struct RetentionRuleOffer: Hashable, Sendable, Codable {
    /// The kinds of offer an app can present to a chosen customer on its own.
    public enum Kind: String, Hashable, Sendable, Codable, CaseIterable {
        case promotional
        case winBack
    }

    public var type: Kind
    public var productID: String
    public var offerID: String

    public init(type: Kind, productID: String, offerID: String) {
        self.type = type
        self.productID = productID
        self.offerID = offerID
    }
}
