public import Crypto
public import Foundation
public import PerennialCore
public import PerennialServer
public import PerennialStorage
public import PerennialSimulator

/// The one place that wires an App Store simulator to a Perennial server: which roots the server
/// trusts, where it sends verifyReceipt and App Store Server API calls, and where the simulator
/// posts notifications.
///
/// It only builds configuration. The two sides then talk over HTTP alone, exactly as a deployed
/// server talks to Apple, so the live test harness and `perennial serve --simulator` exercise the
/// production verification and ingest code with nothing but the trusted roots swapped.
///
/// Wiring happens in two steps because each side needs something from the other: the simulator
/// must know the notification URLs and the Server API key before it starts
/// (``notificationTargets``, ``serverAPICredentials``, ``wire``), and the server must know the
/// roots the simulator generated when it started (``appConfiguration(pki:simulatorURL:catalog:publicKeys:transferPolicy:userTokens:)``).
public struct SandboxWiring: Sendable {
    /// The app's id in the server's URLs.
    public let appID: String
    /// The app the simulator's device runs.
    public let bundleID: String
    /// `appAppleId`, carried on the wire; nil in the sandbox is fine.
    public let appAppleID: Int64?
    /// The Perennial server's base URL, e.g. `http://127.0.0.1:8080`.
    public let serverURL: URL
    /// The app-specific shared secret: verifyReceipt requires it and V1 notifications carry it.
    public let sharedSecret: String
    /// The App Store Server API key the server signs its tokens with and the simulator accepts.
    public let serverAPIKey: P256.Signing.PrivateKey
    /// The key id of ``serverAPIKey``.
    public let serverAPIKeyID: String
    /// The App Store Connect issuer id both sides agree on.
    public let issuerID: String
    /// The In-App Purchase key the server signs promotional offers with (both forms) and the
    /// simulator's StoreKit checks them against, so offers can be redeemed end to end.
    public let promotionalOfferKey: P256.Signing.PrivateKey
    /// The key id of ``promotionalOfferKey``.
    public let promotionalOfferKeyID: String

    /// A wiring; a fresh Server API key by default, unless a client outside the pair must call the
    /// simulator too (`serve --simulator --server-api-key`: ``SimulatorServerAPIKey``).
    public init(
        appID: String,
        bundleID: String,
        appAppleID: Int64? = nil,
        serverURL: URL,
        sharedSecret: String = "sandbox-shared-secret",
        serverAPIKey: P256.Signing.PrivateKey = P256.Signing.PrivateKey(),
        serverAPIKeyID: String = "SANDBOXKEY",
        issuerID: String = "00000000-0000-0000-0000-000000000000",
        promotionalOfferKey: P256.Signing.PrivateKey = P256.Signing.PrivateKey(),
        promotionalOfferKeyID: String = "SANDBOXOFFERS"
    ) {
        self.appID = appID
        self.bundleID = bundleID
        self.appAppleID = appAppleID
        self.serverURL = serverURL
        self.sharedSecret = sharedSecret
        self.serverAPIKey = serverAPIKey
        self.serverAPIKeyID = serverAPIKeyID
        self.issuerID = issuerID
        self.promotionalOfferKey = promotionalOfferKey
        self.promotionalOfferKeyID = promotionalOfferKeyID
    }

    /// The server's V2 and V1 notification URLs for the app, as set in App Store Connect.
    public var notificationTargets: DeliveryTargets {
        let notifications = serverURL.appendingPathComponent("apple").appendingPathComponent("notifications")
        return DeliveryTargets(
            v2: notifications.appendingPathComponent("v2").appendingPathComponent(appID),
            v1: notifications.appendingPathComponent("v1").appendingPathComponent(appID))
    }

    /// The reconciliation margin of the sandbox app: a fifth of a five-minute sandbox month.
    public static let reconciliationMargin: TimeInterval = 60

    /// The key the simulated Server API accepts: the public half of ``serverAPIKey``.
    public var serverAPICredentials: ServerAPICredentials {
        ServerAPICredentials(issuerID: issuerID, bundleID: bundleID, keyID: serverAPIKeyID, publicKey: serverAPIKey.publicKey)
    }

    /// The keys the simulator's StoreKit accepts promotional offer signatures from.
    public var promotionalOfferKeys: [String: P256.Signing.PublicKey] {
        [promotionalOfferKeyID: promotionalOfferKey.publicKey]
    }

    /// The app facts the simulator stamps on its payloads, including the shared secret V1 carries.
    public var wire: WireConfiguration {
        WireConfiguration(appAppleID: appAppleID, sharedSecret: sharedSecret)
    }

    /// The server's configuration of the app, trusting `pki`, calling the simulator at
    /// `simulatorURL` for verifyReceipt and the App Store Server API and signing promotional
    /// offers with ``promotionalOfferKey``; Sandbox evidence only.
    /// Reconciliation asks Apple ``reconciliationMargin`` after a period ends without news: the
    /// simulator's sandbox month lasts five minutes, so the production hour would be a year.
    ///
    /// - Throws: ``SimulatorWireError`` when the simulator's PKI has no receipt authority.
    public func appConfiguration(
        pki: SimulatorPKI,
        simulatorURL: URL,
        catalog: Catalog,
        publicKeys: [SecretValue],
        transferPolicy: TransferPolicy = .transfer,
        userTokens: UserTokenConfiguration? = nil
    ) throws(SimulatorWireError) -> AppConfiguration {
        guard let receiptRoot = try pki.receiptRootDER else {
            throw .pki("the simulator was started without a receipt authority; generate its PKI with receipts")
        }
        let receipts = ReceiptConfiguration(
            sharedSecret: SecretValue(sharedSecret),
            productionURL: simulatorURL.appendingPathComponent("production").appendingPathComponent("verifyReceipt"),
            sandboxURL: simulatorURL.appendingPathComponent("sandbox").appendingPathComponent("verifyReceipt"),
            roots: [.der(receiptRoot)], mode: .verifyReceipt)
        let serverAPI = SigningKeyConfiguration(
            keyID: serverAPIKeyID, privateKey: SecretValue(serverAPIKey.pemRepresentation), issuerID: issuerID, baseURL: simulatorURL)
        let promotionalOffers = SigningKeyConfiguration(
            keyID: promotionalOfferKeyID, privateKey: SecretValue(promotionalOfferKey.pemRepresentation), issuerID: issuerID)
        return AppConfiguration(
            id: appID, bundleID: bundleID, appAppleID: appAppleID, catalog: .catalog(catalog), environments: [.sandbox],
            publicKeys: publicKeys, transferPolicy: transferPolicy, trustedRoots: [.der(try pki.jwsRootDER)], receipts: receipts,
            serverAPI: serverAPI, promotionalOffers: promotionalOffers, userTokens: userTokens,
            reconciliationMargin: Self.reconciliationMargin)
    }
}
