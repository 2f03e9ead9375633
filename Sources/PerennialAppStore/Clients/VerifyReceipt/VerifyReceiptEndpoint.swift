public import PerennialCore

/// The two verifyReceipt services.
///
/// A receipt belongs to one of them, and Apple tells the caller through statuses 21007 and 21008
/// when it knocked at the wrong door.
public enum VerifyReceiptEndpoint: Sendable, Equatable {
    /// `buy.itunes.apple.com`.
    case production
    /// `sandbox.itunes.apple.com`.
    case sandbox

    /// The environment evidence from this endpoint belongs to.
    public var environment: AppStoreEnvironment {
        switch self {
        case .production: .production
        case .sandbox: .sandbox
        }
    }
}
