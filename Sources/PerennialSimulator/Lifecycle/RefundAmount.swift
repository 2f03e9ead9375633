/// How much of a transaction a refund gives back (Apple's `revocationType` for refunds).
public enum RefundAmount: Hashable, Sendable {
    /// The whole price (`REFUND_FULL`).
    case full
    /// The unused share of the period, as of the refund (`REFUND_PRORATED`); only transactions
    /// with a period can be prorated.
    case prorated
}
