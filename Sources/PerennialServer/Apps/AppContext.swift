import Foundation
public import PerennialAppStore
public import PerennialCore
public import PerennialStorage

/// One configured app, resolved and checked at start: the verifiers, clients and keys every request
/// for the app uses, built once so that a request does no file or key parsing.
public struct AppContext: Sendable {
    /// The id in Perennial's URLs.
    public let id: String
    public let bundleID: String
    public let appAppleID: Int64?
    /// Accepted environments, in the configured order.
    public let environments: [AppStoreEnvironment]
    public let catalog: Catalog
    /// Decides state, events and ownership for this app's evidence.
    public let applier: EvidenceApplier
    /// One verifier per accepted environment, because Apple's checks differ per environment.
    public let signedDataVerifiers: [AppStoreEnvironment: SignedDataVerifier]
    /// Set when posted receipts go to verifyReceipt.
    public let verifyReceipt: VerifyReceiptClient?
    /// Set when posted receipts are verified locally.
    public let receiptVerifier: AppReceiptVerifier?
    /// Compared with V1 notifications' `password` and sent to verifyReceipt.
    public let sharedSecret: String?
    /// The App Store Server API client, for reconciliation jobs.
    public let serverAPI: AppStoreServerAPIClient?
    public let offerSigner: PromotionalOfferSignatureCreator?
    public let userTokens: UserTokenVerifier?
    /// Where the webhook job delivers the app's events.
    public let webhooks: [WebhookTarget]
    /// Keys authenticating the app's clients, as bytes.
    let publicKeys: [[UInt8]]
    /// Their ``ConstantTime/digest(_:)``s, which every client request is compared with.
    let publicKeyDigests: [[UInt8]]

    /// The engine of the app's catalog.
    public var engine: SubscriberEngine { applier.engine }

    /// The verifier for evidence claiming `environment`, nil when the app does not accept it.
    public func verifier(for environment: AppStoreEnvironment) -> SignedDataVerifier? {
        signedDataVerifiers[environment]
    }

    /// Whether the app accepts evidence from `environment`.
    public func accepts(_ environment: AppStoreEnvironment) -> Bool {
        environments.contains(environment)
    }

    /// Whether the key whose ``ConstantTime/digest(_:)`` is `digest` is one of the app's public
    /// keys (constant time in the key's content).
    func isPublicKey(digest: [UInt8]) -> Bool {
        var found = false
        for candidate in publicKeyDigests where ConstantTime.equalDigests(candidate, digest) { found = true }
        return found
    }
}
