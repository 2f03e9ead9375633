/// What one action produced: the notifications Apple would send and the records that changed, so
/// the I/O layer can sign and deliver them without inspecting the state.
public struct LifecycleOutput: Hashable, Sendable {
    /// In the order Apple would send them.
    public let notifications: [NotificationIntent]
    /// New transactions and new versions of existing ones (a refund, an upgrade mark, an
    /// extension), each once in its final version, in the order they first changed.
    public let transactions: [SimulatedTransaction]
    /// The renewal info of every auto-renewable subscription the action touched, as it ends up.
    public let renewalInfos: [SimulatedRenewalInfo]
}
