#if os(iOS) || os(visionOS) || os(Linux)
#if os(Linux)
public import StoreKitInterface
#else
public import UIKit
#endif

/// The App Store's own sheets a subscription app offers from its settings screen. They need the
/// window scene to present in (an iPad or visionOS app may show several), so they run on the main
/// actor, where the scene lives; the SDK's state stays on its own actor.
extension Perennial {
    /// Lets the user upgrade, downgrade or cancel without leaving the app (Apple's sheet). When
    /// the sheet closes the subscriber is asked for again, so a change shows at once on
    /// ``subscriberUpdates`` (the server learns it from Apple's notification, or the next renewal).
    @MainActor
    public func showManageSubscriptions(in scene: UIWindowScene) async throws(PerennialError) {
        do {
            try await store.showManageSubscriptions(in: scene)
        } catch {
            throw .store(error)
        }
        _ = try? await subscriber()
    }

    /// Apple's refund request sheet for one of the user's transactions (the `transactionID` of an
    /// ``Entitlement`` or a purchase). Apple decides later; a granted refund arrives as a revoked
    /// transaction through the store's updates, is uploaded, and the entitlement ends on the server.
    @MainActor
    public func requestRefund(for transactionID: String, in scene: UIWindowScene) async throws(PerennialError) -> RefundRequestResult {
        do {
            return try await store.requestRefund(transactionID: transactionID, in: scene)
        } catch {
            throw .store(error)
        }
    }

    /// StoreKit's offer-code redemption sheet. A redeemed code arrives like a renewal, through the
    /// store's updates: it is journaled, uploaded and published on ``subscriberUpdates``.
    @MainActor
    public func presentOfferCodeRedemption(in scene: UIWindowScene) async throws(PerennialError) {
        do {
            try await store.presentOfferCodeRedemption(in: scene)
        } catch {
            throw .store(error)
        }
    }
}
#endif
