public import Foundation
import PerennialAppStore
import SwiftASN1
import X509

extension SimulatorPKI {
    /// The JWS root as DER, the bytes a server under test configures as its trusted Apple root.
    public var jwsRootDER: Data {
        get throws(SimulatorWireError) { try Self.der(jws.root) }
    }

    /// The receipt root as DER; nil without a receipt authority.
    public var receiptRootDER: Data? {
        get throws(SimulatorWireError) { try receipts.map { authority throws(SimulatorWireError) in try Self.der(authority.root) } }
    }

    static func der(_ certificate: Certificate) throws(SimulatorWireError) -> Data {
        var serializer = DER.Serializer()
        do {
            try serializer.serialize(certificate)
        } catch {
            throw .pki("cannot serialize certificate \(certificate.subject): \(error)")
        }
        return Data(serializer.serializedBytes)
    }
}
