/// https://developer.apple.com/documentation/storekit/appstore
@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
public enum AppStore {
    /// https://developer.apple.com/documentation/storekit/appstore/canmakepayments
    public static var canMakePayments: Bool {
        ScriptedAppStore.current.canMakePayments
    }

    /// https://developer.apple.com/documentation/storekit/appstore/sync()
    public static func sync() async throws {
        try ScriptedAppStore.current.sync()
    }

    /// https://developer.apple.com/documentation/storekit/appstore/showmanagesubscriptions(in:)
    @available(iOS 15.0, macCatalyst 15.0, visionOS 1.0, *)
    @available(macOS, unavailable)
    @available(tvOS, unavailable)
    @available(watchOS, unavailable)
    @MainActor
    public static func showManageSubscriptions(in scene: UIWindowScene) async throws {
        try ScriptedAppStore.current.showManageSubscriptions()
    }

    /// https://developer.apple.com/documentation/storekit/appstore/presentoffercoderedeemsheet(in:)
    @available(iOS, introduced: 16.0, deprecated: 27.0)
    @available(macCatalyst, introduced: 16.0, deprecated: 27.0)
    @available(visionOS, introduced: 1.0, deprecated: 27.0)
    @available(macOS, unavailable)
    @available(tvOS, unavailable)
    @available(watchOS, unavailable)
    @MainActor
    public static func presentOfferCodeRedeemSheet(in scene: UIWindowScene) async throws {
        try ScriptedAppStore.current.presentOfferCodeRedeemSheet()
    }
}
