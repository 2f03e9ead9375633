import Foundation
import SwiftASN1
public import X509

extension TransactionReceipt {
    /// Checks the `signature` blob: a version 2 (128-byte) or 3 (256-byte) RSA SHA-1 signature
    /// over the version byte and the `purchase-info` bytes, made by the certificate the blob
    /// carries, which must be `signer` itself.
    ///
    /// Apple's iTunes Store certificate is not modelled, so this serves whoever knows its signer:
    /// the simulator's verifyReceipt, which must refuse a receipt it did not sign as Apple does.
    ///
    /// - Throws: ``ReceiptError/missingSignerCertificate`` without a signature,
    ///   ``ReceiptError/malformed(_:)`` for a blob of the wrong shape,
    ///   ``ReceiptError/untrustedRoot`` for another certificate, ``ReceiptError/badSignature``.
    public func verifySignature(signer: Certificate) throws(ReceiptError) {
        guard let blob = signature, let version = blob.first else { throw .missingSignerCertificate }
        let length: Int
        switch version {
        case 2: length = 128
        case 3: length = 256
        default: throw .malformed("signature version \(version) is neither 2 nor 3")
        }
        let bytes = [UInt8](blob)
        guard bytes.count >= 1 + length + 4 else { throw .malformed("signature blob of \(bytes.count) bytes is too short") }
        let signatureBytes = bytes[1..<(1 + length)]
        let certificateLength = bytes[(1 + length)..<(1 + length + 4)].reduce(0) { $0 << 8 | Int($1) }
        let certificateStart = 1 + length + 4
        guard bytes.count == certificateStart + certificateLength else { throw .malformed("signature blob's certificate length does not match") }
        var serializer = DER.Serializer()
        do {
            try serializer.serialize(signer)
        } catch {
            throw .malformed("signer certificate: \(error)")
        }
        guard Array(bytes[certificateStart...]) == serializer.serializedBytes else { throw .untrustedRoot }
        guard signer.publicKey.isValidSignature(signatureBytes, for: Data([version]) + purchaseInfoBytes, signatureAlgorithm: .sha1WithRSAEncryption)
        else { throw .badSignature }
    }
}
