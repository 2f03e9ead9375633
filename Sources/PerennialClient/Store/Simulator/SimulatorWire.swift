import Foundation

/// The JSON bodies of the simulator's device API (`/simulator/v1`, served by `PerennialSimulator`'s
/// `buildSimulatorApplication`), exactly as sent.
enum SimulatorWire {
    struct PurchaseRequest: Encodable, Sendable {
        let account: String
        let productId: String
        let appAccountToken: String?
        let offer: Offer?
        let askToBuy: Bool
    }

    /// An offer as the device passes it: a promotional offer's signature in the one form the
    /// store takes (``SignedOffer/form(storeAcceptsJWS:)``).
    struct Offer: Encodable, Sendable {
        let type: String
        let id: String?
        let signature: LegacySignature?
        let compactJWS: String?

        struct LegacySignature: Encodable, Sendable {
            let keyIdentifier: String
            let nonce: String
            let timestamp: Int64
            let signature: String
        }

        init(_ offer: StoreOffer, acceptsJWS: Bool) {
            type = offer.type
            id = offer.id
            switch offer.signature?.form(storeAcceptsJWS: acceptsJWS) {
            case .legacy(let keyIdentifier, let nonce, let timestamp, let signature):
                self.signature = LegacySignature(keyIdentifier: keyIdentifier, nonce: nonce, timestamp: timestamp, signature: signature)
                compactJWS = nil
            case .compactJWS(let jws):
                signature = nil
                compactJWS = jws
            case nil:
                signature = nil
                compactJWS = nil
            }
        }
    }

    /// `{"signedAppTransaction": …}`: the account's `AppTransaction.shared`.
    struct AppTransaction: Decodable {
        let signedAppTransaction: String
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
