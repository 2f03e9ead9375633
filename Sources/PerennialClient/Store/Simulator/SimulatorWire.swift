import Foundation

/// The JSON bodies of the simulator's device API (`/simulator/v1`, served by `PerennialSimulator`'s
/// `buildSimulatorApplication`), exactly as sent.
enum SimulatorWire {
    struct PurchaseRequest: Encodable, Sendable {
        let account: String
        let productId: String
        let appAccountToken: String?
        let offer: StoreOffer?
        let askToBuy: Bool
    }

    /// `{"status":"purchased",…}`, `{"status":"pending","pendingId"}` or `{"status":"declined"}`.
    struct PurchaseAnswer: Decodable {
        let status: String
        let signedTransaction: String?
        let transactionId: String?
        let originalTransactionId: String?
        let receipt: String?
        let pendingId: String?
    }

    struct AccountRequest: Encodable, Sendable {
        let id: String
        let storefront: String
        let renewal: String
    }

    struct SignedTransactions: Decodable {
        let signedTransactions: [String]
    }

    struct Receipt: Decodable {
        let receipt: String
    }

    struct Clock: Decodable {
        let now: Date
    }

    struct AdvanceBySeconds: Encodable, Sendable {
        let seconds: Double
    }

    struct AdvanceTo: Encodable, Sendable {
        let to: Date
    }
}
