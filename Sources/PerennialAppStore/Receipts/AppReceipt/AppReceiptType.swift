public import PerennialCore

/// The receipt type (attribute 0), which says which App Store environment signed the receipt.
///
/// Open, because Apple has added values before (`ProductionVPP`); an unknown type is carried and
/// becomes an environment of the same raw name.
public struct AppReceiptType: OpenValue {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let production: Self = "Production"
    public static let productionVPP: Self = "ProductionVPP"
    public static let productionSandbox: Self = "ProductionSandbox"
    public static let productionVPPSandbox: Self = "ProductionVPPSandbox"
    /// StoreKit testing in Xcode.
    public static let xcode: Self = "Xcode"

    /// The App Store environment that issued a receipt of this type, so that receipts and every
    /// other source name environments alike.
    public var environment: AppStoreEnvironment {
        switch self {
        case .production, .productionVPP: .production
        case .productionSandbox, .productionVPPSandbox: .sandbox
        case .xcode: .xcode
        default: AppStoreEnvironment(rawValue: rawValue)
        }
    }
}
