public import Foundation

/// How an app's posted receipts are verified, and the app's shared secret.
///
/// With a shared secret the receipt goes to verifyReceipt by default, whose answer also carries
/// renewal information (`pending_renewal_info`); without one (or with `mode: local`) it is
/// verified locally against `roots` (Apple Inc. Root for real receipts, a simulator's receipt root
/// in tests).
public struct ReceiptConfiguration: Sendable, Decodable {
    /// Where a posted receipt is verified.
    public enum Mode: String, Sendable, Decodable {
        /// Sent to verifyReceipt with the shared secret.
        case verifyReceipt
        /// Verified here against ``ReceiptConfiguration/roots``.
        case local
    }

    /// The app-specific shared secret: sent to verifyReceipt as `password` and compared (in
    /// constant time) with the `password` of V1 notifications.
    public var sharedSecret: SecretValue?
    /// verifyReceipt's production URL; Apple's unless pointed at a simulator.
    public var productionURL: URL?
    /// verifyReceipt's sandbox URL; Apple's unless pointed at a simulator.
    public var sandboxURL: URL?
    /// Roots for local PKCS#7 verification.
    public var roots: [CertificateSource]
    /// Nil: verifyReceipt when a shared secret is set, else local.
    public var mode: Mode?

    /// The mode in effect.
    public var effectiveMode: Mode { mode ?? (sharedSecret != nil ? .verifyReceipt : .local) }

    public init(
        sharedSecret: SecretValue? = nil, productionURL: URL? = nil, sandboxURL: URL? = nil, roots: [CertificateSource] = [], mode: Mode? = nil
    ) {
        self.mode = mode
        self.sharedSecret = sharedSecret
        self.productionURL = productionURL
        self.sandboxURL = sandboxURL
        self.roots = roots
    }

    private enum CodingKeys: String, CodingKey { case sharedSecret, productionURL, sandboxURL, roots, mode }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        sharedSecret = try container.decodeIfPresent(SecretValue.self, forKey: .sharedSecret)
        productionURL = try container.decodeIfPresent(URL.self, forKey: .productionURL)
        sandboxURL = try container.decodeIfPresent(URL.self, forKey: .sandboxURL)
        roots = try container.decodeIfPresent([CertificateSource].self, forKey: .roots) ?? []
        mode = try container.decodeIfPresent(Mode.self, forKey: .mode)
    }

    func resolvingPaths(relativeTo directory: URL) -> ReceiptConfiguration {
        var copy = self
        copy.sharedSecret = sharedSecret?.resolvingPath(relativeTo: directory)
        copy.roots = roots.map { $0.resolvingPath(relativeTo: directory) }
        return copy
    }
}
