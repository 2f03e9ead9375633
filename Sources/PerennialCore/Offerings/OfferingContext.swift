/// What the app says about the device asking for its offerings: the storefront and the app
/// version cannot be known on the server (a user moves country, updates the app), so the
/// request carries them.
public struct OfferingContext: Hashable, Sendable {
    /// ISO 3166-1 alpha-3, upper case; nil when the app did not say.
    public var storefront: String?
    /// Nil when the app did not say.
    public var appVersion: AppVersion?

    public init(storefront: String? = nil, appVersion: AppVersion? = nil) {
        self.storefront = storefront
        self.appVersion = appVersion
    }

    /// `text` as a storefront code, upper-cased ("usa" is "USA"); nil unless it is three ASCII
    /// letters, the form of App Store storefront codes. The one rule for the codes operators
    /// target and the codes apps send, so both compare alike.
    public static func storefront(_ text: String) -> String? {
        guard text.count == 3, text.allSatisfy({ $0.isASCII && $0.isLetter }) else { return nil }
        return text.uppercased()
    }
}
