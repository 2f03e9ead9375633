public import Crypto
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
    /// The environment the analytics API and the dashboard report when none is asked for:
    /// Production when the app accepts it (sandbox purchases are tests, not revenue), else
    /// Sandbox, so that an app still in testing (the simulator's demo) shows its figures, not zeros.
    public var analyticsEnvironment: AppStoreEnvironment {
        !environments.contains(.production) && environments.contains(.sandbox) ? .sandbox : .production
    }
    public let catalog: Catalog
    /// Decides state, events and ownership for this app's evidence.
    public let applier: EvidenceApplier
    /// Every rule deciding whether evidence belongs to the app, for every kind of evidence.
    public let verifier: AppEvidenceVerifier
    /// The App Store Server API client, for reconciliation jobs.
    public let serverAPI: AppStoreServerAPIClient?
    public let offerSigner: PromotionalOfferSignatureCreator?
    /// Signs the same offers in the JWS form (`promotionalOffer(_:compactJWS:)`) when the team's
    /// issuer id is known; StoreKit on newer systems takes it, older ones the legacy signature.
    public let offerJWSSigner: PromotionalOfferV2SignatureCreator?
    /// Signs the server's verdict on a user's introductory-offer eligibility with the same key
    /// (`introductoryOfferEligibility(compactJWS:)`): Apple judges by Apple ID, the server by the
    /// app's account, which a second Apple ID does not reset.
    public let introEligibilitySigner: IntroductoryOfferEligibilitySignatureCreator?
    public let userTokens: UserTokenVerifier?
    /// Where the webhook job delivers the app's events.
    public let webhooks: [WebhookTarget]
    /// The services the webhook job also tells (``IntegrationTarget``s).
    let integrations: [any DeliveryTarget]
    /// Signs subscriber answers when configured (`answerSigningKey`).
    public let answerSigner: Curve25519.Signing.PrivateKey?
    /// Keys authenticating the app's clients, as bytes.
    let publicKeys: [[UInt8]]
    /// Their ``ConstantTime/digest(_:)``s, which every client request is compared with.
    let publicKeyDigests: [[UInt8]]
    /// How the app's figures are reported.
    public var analytics = AnalyticsConfiguration()
    /// How Apple's refund consumption requests are answered; nil records them unanswered.
    public var consumption: ConsumptionPolicy?
    /// How Apple's realtime retention requests are answered; nil leaves Apple's default messages.
    public var retention: RetentionPolicy?

    /// The engine of the app's catalog.
    public var engine: SubscriberEngine { applier.engine }

    /// The verifier for signed data claiming `environment`, nil when the app does not accept it.
    public func verifier(for environment: AppStoreEnvironment) -> SignedDataVerifier? {
        verifier.signedDataVerifier(for: environment)
    }

    /// Whether the key whose ``ConstantTime/digest(_:)`` is `digest` is one of the app's public
    /// keys (constant time in the key's content).
    func isPublicKey(digest: [UInt8]) -> Bool {
        var found = false
        for candidate in publicKeyDigests where ConstantTime.equalDigests(candidate, digest) { found = true }
        return found
    }
}
