/// A sandbox tester: the Apple ID that buys, with the storefront it buys in and how its renewal
/// charges behave.
///
/// Apple's sandbox lets a tester only switch renewals off on a device; the simulator makes the
/// behaviour a property of the account so a scenario states it up front.
public struct SandboxAccount: Hashable, Sendable, Codable {
    /// The tester's identifier (Apple's sandbox testers are e-mail addresses).
    public let id: String
    /// ISO 3166-1 alpha-3 storefront country code, as in Apple's `storefront` field (`USA`).
    public let storefront: String
    /// What happens when a renewal of this account is charged.
    public let renewalBehavior: RenewalBehavior
    /// The tester's download of the app; nil for one whose app transaction is dated at their first
    /// in-app purchase, the earliest moment the store knows of them.
    public let appDownload: AppDownload?

    /// A tester; renewals succeed unless another behaviour is given.
    public init(id: String, storefront: String = "USA", renewalBehavior: RenewalBehavior = .renew, appDownload: AppDownload? = nil) {
        self.id = id
        self.storefront = storefront
        self.renewalBehavior = renewalBehavior
        self.appDownload = appDownload
    }
}
