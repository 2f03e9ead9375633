/// How a transaction reached the SDK; decides its priority and whether a full journal may refuse it.
enum TransactionOrigin: String, Codable, Sendable, Hashable {
    /// The user just paid inside this app: uploaded first, never refused.
    case purchase
    /// Handed over by the store unasked (`unfinished` at launch, the updates stream): renewals,
    /// Ask to Buy approvals, purchases on other devices, refunds. Safe to refuse when the journal is
    /// full because the store keeps it unfinished and hands it over again.
    case storeUpdate
    /// Re-sent by `restorePurchases()`: finished with the store long ago, as a rule, so not finished
    /// again; one the store still holds unfinished comes back through the store, which finishes it.
    case restore

    /// Whether the store must be told about delivery (restored transactions were finished long ago).
    var needsFinish: Bool { self != .restore }
}
