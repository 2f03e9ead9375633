public import Foundation
public import X509

/// An app receipt whose signature and certificate chain were verified against configured roots.
///
/// Only this type (never a bare ``ParsedAppReceipt``) should feed normalization in production,
/// so that the type system keeps unverified claims out of subscription state.
public struct VerifiedAppReceipt: Hashable, Sendable {
    public var parsed: ParsedAppReceipt
    /// Signer first, configured root last.
    public var chain: [Certificate]
    /// The instant the chain was validated at.
    public var validationTime: Date

    public init(parsed: ParsedAppReceipt, chain: [Certificate], validationTime: Date) {
        self.parsed = parsed
        self.chain = chain
        self.validationTime = validationTime
    }

    public var receipt: AppReceipt { parsed.receipt }
}
