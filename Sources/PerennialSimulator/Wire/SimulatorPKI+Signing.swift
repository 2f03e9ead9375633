public import Foundation
import PerennialAppStore

extension SimulatorPKI {
    /// The compact JWS of `transaction` as Apple signs it at `signedDate`, for notifications,
    /// StoreKit answers and the Server API alike.
    public func signedTransaction(_ transaction: SimulatedTransaction, signedDate: Date) throws(SimulatorWireError) -> String {
        try sign(PayloadEncoder.transactionPayload(transaction, signedDate: signedDate))
    }

    /// The compact JWS of `renewalInfo` as Apple signs it at `signedDate`.
    public func signedRenewalInfo(_ renewalInfo: SimulatedRenewalInfo, signedDate: Date) throws(SimulatorWireError) -> String {
        try sign(PayloadEncoder.renewalInfoPayload(renewalInfo, signedDate: signedDate))
    }

    /// Signs any payload under the Apple-shaped header; the JSON has sorted keys, so equal
    /// payloads give equal JWS payload bytes.
    public func sign(_ payload: some Encodable) throws(SimulatorWireError) -> String {
        do {
            return try jws.sign(payload: payload)
        } catch {
            throw .signing(error.description)
        }
    }
}
