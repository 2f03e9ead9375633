/// Linux-only test scaffolding: UIKit's window scene, which StoreKit's sheets are presented in
/// (`AppStore.showManageSubscriptions(in:)`, `Transaction.beginRefundRequest(for:in:)`,
/// `AppStore.presentOfferCodeRedeemSheet(in:)`). Not StoreKit's: UIKit's
/// (https://developer.apple.com/documentation/uikit/uiwindowscene), declared here only so the
/// adapters' scene-taking calls compile and run on Linux. Main-actor isolated, as UIKit's.
@MainActor
public final class UIWindowScene {
    /// A scene; the scripted App Store records which sheets were shown in it.
    public init() {}
}
