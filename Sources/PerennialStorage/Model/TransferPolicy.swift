public import PerennialCore

/// What happens when a second app user presents a purchase another app user already owns (a shared
/// Apple ID, a reinstall under a new account, a restore on a new device).
///
/// Apps disagree on the right answer, so the operator configures it.
public enum TransferPolicy: String, Hashable, Sendable, ClosedValue {
    /// The presenter takes the purchase; the previous owner loses it.
    case transfer
    /// The original owner keeps it; the presenter gets nothing from it.
    case keepWithOriginalOwner
}
