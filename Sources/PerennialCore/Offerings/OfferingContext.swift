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
}
