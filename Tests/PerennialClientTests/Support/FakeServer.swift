import Crypto
import Foundation
@testable import PerennialClient

/// A Perennial server in memory: switchable down, counting every post and the uploads in flight.
actor FakeServer: ServerAPI {
    struct Post: Equatable {
        let transactionID: String
        let appUserID: String
    }

    /// One offerings request, with what the device said about itself.
    struct OfferingsAsk: Equatable {
        let appUserID: String
        let storefront: String?
        let appVersion: String?
    }

    struct LogIn: Equatable {
        let appUserID: String
        let anonymousAppUserID: String
    }

    /// The server's own clock, independent of the device's.
    var serverTime = Date(timeIntervalSince1970: 1_900_000_000)
    private(set) var isUp = true
    private(set) var posts: [Post] = []
    private(set) var receipts: [String] = []
    private(set) var appTransactions: [String] = []
    /// Every log-in asked for, as (logged-in user, anonymous user).
    private(set) var logIns: [LogIn] = []
    private var originalAppPurchases: [String: OriginalAppPurchase] = [:]
    private(set) var inFlight = 0
    private(set) var maxInFlight = 0
    private var uploadDelay: Duration?
    private var owned: [String: [String: ServerEntitlement]] = [:]

    /// When set, offers are signed in both forms (the JWS one is this).
    private var offerJWS: String?
    /// When set, offers are signed for real, as App Store Connect's key `KEY` signs them for this
    /// bundle (the legacy form; the JWS one too when `jws`).
    private var offerSigner: (key: P256.Signing.PrivateKey, bundleID: String, jws: Bool)?
    /// The introductory-offer verdicts the server gives, by product (eligible when absent), and
    /// every product a verdict was asked for.
    private var introVerdicts: [String: Bool] = [:]
    private(set) var introVerdictsAsked: [String] = []
    private(set) var offeringsAsked: [OfferingsAsk] = []
    /// When set, asking for offerings fails with this (the rest of the API answers).
    private var offeringsFailure: ServerError?
    /// When set, asking for the app account token fails with this (the rest of the API answers).
    private var appAccountTokenFailure: ServerError?

    func setUp(_ up: Bool) { isUp = up }
    func signOffersAsJWS(_ jws: String?) { offerJWS = jws }
    func signOffers(with key: P256.Signing.PrivateKey, bundleID: String, jws: Bool = false) { offerSigner = (key, bundleID, jws) }
    func failAppAccountTokens(with error: ServerError?) { appAccountTokenFailure = error }
    func failOfferings(with error: ServerError?) { offeringsFailure = error }
    func judgeIntroOffer(of productID: String, eligible: Bool) { introVerdicts[productID] = eligible }
    func setUploadDelay(_ delay: Duration?) { uploadDelay = delay }
    func postCount(of transactionID: String) -> Int { posts.count { $0.transactionID == transactionID } }

    func postTransaction(_ signedTransaction: String, appUserID: String) async throws(ServerError) -> SubscriberResponse {
        inFlight += 1
        maxInFlight = max(maxInFlight, inFlight)
        defer { inFlight -= 1 }
        if let uploadDelay { try? await Task.sleep(for: uploadDelay) }
        guard isUp else { throw .unreachable("connection refused") }
        let transaction = try! StoreTransaction(signedTransaction: signedTransaction)
        posts.append(Post(transactionID: transaction.transactionID, appUserID: appUserID))
        let product = transaction.productID ?? "unknown"
        owned[appUserID, default: [:]][product == "pro.monthly" ? "pro" : product] = ServerEntitlement(
            isActive: transaction.revocationDate == nil, productID: product,
            expiresDate: serverTime.addingTimeInterval(30 * 86_400),
            originalTransactionID: transaction.originalTransactionID ?? transaction.transactionID,
            transactionID: transaction.transactionID)
        return respond(appUserID)
    }

    func postReceipt(_ receipt: String, appUserID: String) async throws(ServerError) -> SubscriberResponse {
        guard isUp else { throw .unreachable("connection refused") }
        receipts.append(receipt)
        return respond(appUserID)
    }

    func subscriber(appUserID: String) async throws(ServerError) -> SubscriberResponse {
        guard isUp else { throw .unreachable("connection refused") }
        return respond(appUserID)
    }

    /// Moves everything the anonymous user owns to the logged-in user (the transfer policy).
    func logIn(appUserID: String, anonymousAppUserID: String) async throws(ServerError) -> SubscriberResponse {
        guard isUp else { throw .unreachable("connection refused") }
        logIns.append(LogIn(appUserID: appUserID, anonymousAppUserID: anonymousAppUserID))
        let moved = owned.removeValue(forKey: anonymousAppUserID) ?? [:]
        owned[appUserID, default: [:]].merge(moved) { _, new in new }
        var answer = respond(appUserID)
        if !moved.isEmpty { answer.transfer = SubscriberTransfer(previousOwner: anonymousAppUserID) }
        return answer
    }

    /// Takes any app transaction as proof of a download in version "1.0" at the server's time.
    func postAppTransaction(_ signedAppTransaction: String, appUserID: String) async throws(ServerError) -> SubscriberResponse {
        guard isUp else { throw .unreachable("connection refused") }
        appTransactions.append(signedAppTransaction)
        originalAppPurchases[appUserID] = OriginalAppPurchase(environment: "Sandbox", originalApplicationVersion: "1.0", originalPurchaseDate: serverTime)
        return respond(appUserID)
    }

    func appAccountToken(appUserID: String) async throws(ServerError) -> UUID {
        guard isUp else { throw .unreachable("connection refused") }
        if let appAccountTokenFailure { throw appAccountTokenFailure }
        return UUID(uuidString: "6F9619FF-8B86-D011-B42D-00C04FC964FF")!
    }

    func eligibility(productIDs: [String], appUserID: String) async throws(ServerError) -> [String: IntroEligibility] {
        guard isUp else { throw .unreachable("connection refused") }
        return Dictionary(uniqueKeysWithValues: productIDs.map { ($0, owned[appUserID]?[$0] == nil ? .eligible : .ineligible) })
    }

    func signOffer(productID: String, offerID: String, appUserID: String) async throws(ServerError) -> SignedOffer {
        guard isUp else { throw .unreachable("connection refused") }
        guard let signer = offerSigner else {
            return SignedOffer(
                keyIdentifier: "KEY", nonce: "6f9619ff-8b86-d011-b42d-00c04fc964ff", timestamp: 1, signature: "c2ln", compactJWS: offerJWS)
        }
        let nonce = UUID().uuidString.lowercased()
        let timestamp = Int64(serverTime.timeIntervalSince1970 * 1000)
        let token = try await appAccountToken(appUserID: appUserID).uuidString.lowercased()
        let fields = [signer.bundleID, "KEY", productID, offerID, token, nonce, String(timestamp)]
        let signature = try! signer.key.signature(for: Data(fields.joined(separator: "\u{2063}").utf8))
        var jws: String?
        if signer.jws {
            let claims = #"{"bid":"\#(signer.bundleID)","productId":"\#(productID)","offerIdentifier":"\#(offerID)","nonce":"\#(nonce)"}"#
            let input = FakeJWS.base64URL(Data(#"{"alg":"ES256","kid":"KEY"}"#.utf8)) + "." + FakeJWS.base64URL(Data(claims.utf8))
            jws = input + "." + FakeJWS.base64URL(try! signer.key.signature(for: Data(input.utf8)).rawRepresentation)
        }
        return SignedOffer(
            keyIdentifier: "KEY", nonce: nonce, timestamp: timestamp, signature: signature.derRepresentation.base64EncodedString(), compactJWS: jws)
    }

    /// Signed with the offer key (``signOffers(with:bundleID:jws:)``) as the real server signs it;
    /// without a key the server has no verdict to give (501).
    func signIntroEligibility(productID: String, appUserID: String) async throws(ServerError) -> SignedIntroEligibility {
        guard isUp else { throw .unreachable("connection refused") }
        introVerdictsAsked.append(productID)
        guard let signer = offerSigner else { throw .http(status: 501, code: "notConfigured", message: "no promotional offer key") }
        let eligible = introVerdicts[productID] ?? true
        let claims = #"{"aud":"introductory-offer-eligibility","bid":"\#(signer.bundleID)","productId":"\#(productID)","allowIntroductoryOffer":\#(eligible),"transactionId":"1"}"#
        let input = FakeJWS.base64URL(Data(#"{"alg":"ES256","kid":"KEY"}"#.utf8)) + "." + FakeJWS.base64URL(Data(claims.utf8))
        let jws = input + "." + FakeJWS.base64URL(try! signer.key.signature(for: Data(input.utf8)).rawRepresentation)
        return SignedIntroEligibility(productID: productID, eligibility: eligible ? .eligible : .ineligible, compactJWS: jws)
    }

    /// Every user's current offering is their own (`for-<user>`), so an answer shown to the wrong
    /// user is recognisable.
    func offerings(appUserID: String, storefront: String?, appVersion: String?) async throws(ServerError) -> OfferingsResponse {
        guard isUp else { throw .unreachable("connection refused") }
        offeringsAsked.append(OfferingsAsk(appUserID: appUserID, storefront: storefront, appVersion: appVersion))
        if let offeringsFailure { throw offeringsFailure }
        let own = Offering(id: "for-\(appUserID)", products: ["pro.monthly"], metadata: ["en": .object(["title": .string("Hello \(appUserID)")])])
        return OfferingsResponse(
            current: own, offerings: [Offering(id: "default", products: ["pro.monthly"], isDefault: true), own],
            experiment: runningExperiment.map { OfferingsExperiment(id: $0, variant: "b") }, retention: retention)
    }

    /// When set, every offerings answer carries this retention rule's choice.
    private var retention: OfferingsRetention?

    func retain(with choice: OfferingsRetention?) {
        retention = choice
    }

    /// When set, every offerings answer comes from this experiment's variant b.
    private var runningExperiment: String?
    /// Every exposure reported, as (experiment, user).
    private(set) var exposures: [[String]] = []

    func runExperiment(_ id: String?) {
        runningExperiment = id
    }

    func recordExposure(experimentID: String, appUserID: String) async throws(ServerError) -> ExposureResponse {
        guard isUp else { throw .unreachable("connection refused") }
        exposures.append([experimentID, appUserID])
        return ExposureResponse(experiment: experimentID, variant: "b", firstExposedAt: serverTime)
    }

    /// Every answer carries a later server time, so out-of-order answers are recognisable.
    private func respond(_ appUserID: String) -> SubscriberResponse {
        serverTime += 0.001
        return SubscriberResponse(
            serverTime: serverTime,
            subscriber: ServerSubscriber(appUserID: appUserID, entitlements: owned[appUserID] ?? [:], originalAppPurchase: originalAppPurchases[appUserID]))
    }
}
