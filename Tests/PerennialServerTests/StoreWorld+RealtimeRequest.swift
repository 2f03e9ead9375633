import Foundation
import PerennialAppStore
import PerennialSimulator

extension StoreWorld {
    /// Apple's Get Retention Message request about the subscription of `transaction`, signed now:
    /// the customer opened its page in the App Store and may cancel.
    func signedRealtimeRequest(about transaction: SimulatedTransaction) throws -> String {
        let request = DecodedRealtimeRequestBody(
            originalTransactionId: transaction.originalTransactionID, productId: transaction.productID, userLocale: "en-US",
            requestIdentifier: UUID().uuidString.lowercased(), environment: .sandbox, signedDate: state.now)
        return try pki.sign(request)
    }
}
