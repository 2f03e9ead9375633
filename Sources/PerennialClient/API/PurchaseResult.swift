/// How a purchase ended, from the app's point of view.
public enum PurchaseResult: Sendable, Equatable {
    /// Paid and delivered: the subscriber is the server's answer to this very purchase.
    case success(Subscriber)
    /// The user closed the payment sheet.
    case userCancelled
    /// Waiting for Ask to Buy approval (or extra authentication); the outcome arrives later through
    /// ``Perennial/subscriberUpdates``.
    case pending
    /// Failed; check ``PerennialError/isPaymentPending`` before telling the user anything.
    case failed(PerennialError)
}
