public import Foundation

/// Where the simulator's signing keys come from.
public enum PKISource: Sendable {
    /// Fresh keys valid from a day before the simulator's start; `receipts: false` skips the slow
    /// RSA receipt authority (no app receipts, no verifyReceipt).
    case generate(receipts: Bool)
    /// Keys the caller already holds, e.g. one PKI shared by many tests.
    case provided(SimulatorPKI)
    /// The JWS chain kept as PEM files in a directory (created there on first use), so a server
    /// configured with the root keeps trusting a restarted simulator. The receipt authority is
    /// generated fresh on every start when `receipts` is true.
    case directory(URL, receipts: Bool)
}
