/// Whether the user may still get a product's introductory offer, as the server judged it from
/// everything the user bought in the product's subscription group. Unknown values are kept.
public struct IntroEligibility: OpenWireValue {
    /// The wire value.
    public let rawValue: String

    /// Any value, known or not.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// The user has never had an introductory offer in the product's group.
    public static let eligible = IntroEligibility(rawValue: "eligible")
    /// The user already had one; show the regular price.
    public static let ineligible = IntroEligibility(rawValue: "ineligible")
    /// The server could not tell (for example, it does not know the product).
    public static let unknown = IntroEligibility(rawValue: "unknown")
}
