/// What the device learns from a purchase: the signed transaction and the refreshed receipt, or
/// that it waits for Ask to Buy approval.
public enum DevicePurchaseResult: Hashable, Sendable {
    /// The purchase went through.
    case purchased(CompletedPurchase)
    /// Ask to Buy: the purchase completes (or not) when ``AppStoreSimulator/approve(pendingID:)``
    /// or ``AppStoreSimulator/decline(pendingID:)`` is called with this id.
    case pending(id: String)
}

/// A purchase that went through, as StoreKit hands it to the app.
public struct CompletedPurchase: Hashable, Sendable {
    /// The new transaction as the store recorded it.
    public let transaction: SimulatedTransaction
    /// `Transaction.jwsRepresentation`.
    public let signedTransaction: String
    /// The app receipt after the purchase; nil when the simulator has no receipt authority.
    public let receipt: DeviceReceipt?
    /// The lifecycle step, with its notifications and deliveries.
    public let step: SimulatorStep
}
