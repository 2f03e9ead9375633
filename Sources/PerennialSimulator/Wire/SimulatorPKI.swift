public import Foundation
public import PerennialAppStore

/// The keys and certificates the simulated App Store signs with: an Apple-shaped JWS chain for
/// every V2 payload and, when receipts are wanted, a PKCS#7 receipt signer.
///
/// Servers under test trust ``jws``'s root instead of Apple's, so everything the simulator emits
/// passes the same verification code as Apple's real answers.
public struct SimulatorPKI: Sendable {
    /// Signs transactions, renewal infos and V2 notifications.
    public let jws: AppleShapedPKI
    /// Signs app receipts; nil when the simulation does not produce receipts.
    public let receipts: ReceiptSigningAuthority?

    /// Wraps existing authorities, for a simulator that keeps its PKI across restarts.
    public init(jws: AppleShapedPKI, receipts: ReceiptSigningAuthority? = nil) {
        self.jws = jws
        self.receipts = receipts
    }

    /// Generates fresh authorities valid from `validFrom` with Apple-like lifetimes. Receipt
    /// signing (three RSA keys, slow to generate) is only set up when `includesReceipts` is true.
    ///
    /// - Throws: ``SimulatorWireError/pki(_:)`` when a key or certificate cannot be created.
    public static func generate(validFrom: Date, includesReceipts: Bool = false) throws(SimulatorWireError) -> SimulatorPKI {
        let jws: AppleShapedPKI
        do {
            jws = try AppleShapedPKI.generate(AppleShapedPKI.Configuration(validFrom: validFrom))
        } catch {
            throw .pki("\(error)")
        }
        guard includesReceipts else { return SimulatorPKI(jws: jws) }
        do {
            let receipts = try ReceiptSigningAuthority(
                name: "Perennial Simulator Receipt Signing", notValidBefore: validFrom,
                notValidAfter: validFrom.addingTimeInterval(receiptAuthorityLifetime))
            return SimulatorPKI(jws: jws, receipts: receipts)
        } catch {
            throw .pki("\(error)")
        }
    }

    /// Ten years, longer than any simulated run.
    private static let receiptAuthorityLifetime: TimeInterval = 10 * 365 * 86_400
}
