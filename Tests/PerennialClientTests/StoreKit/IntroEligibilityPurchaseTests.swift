#if !canImport(StoreKit)
import Crypto
import Foundation
@testable import PerennialClient
@testable import StoreKitInterface
import Testing

/// With ``PerennialConfiguration/serverDecidesIntroEligibility``, a StoreKit 2 purchase hands
/// StoreKit the server's signed verdict on the introductory offer
/// (`introductoryOfferEligibility(compactJWS:)`), which the App Store checks against the
/// developer's key; without the setting, or when the server cannot say, Apple's own rule applies.
@Suite struct IntroEligibilityPurchaseTests {
    static func sdk(_ app: SDKFixture, _ appStore: ScriptedAppStore, serverDecides: Bool) -> Perennial {
        var configuration = app.configuration()
        configuration.serverDecidesIntroEligibility = serverDecides
        return Perennial(configuration: configuration, store: StoreKit2Store(receiptURL: { appStore.receiptURL }), server: app.server)
    }

    /// The verdict options of the App Store's purchases, in order.
    static func verdicts(_ appStore: ScriptedAppStore) -> [String?] {
        appStore.purchases.map { purchase in
            purchase.options.lazy.compactMap { option -> String? in
                if case .introductoryOfferEligibility(let jws) = option.kind { return jws }
                return nil
            }.first
        }
    }

    @Test func theServersSignedVerdictReachesStoreKit() async throws {
        let appStore = StoreKit2AdapterTests.store()
        let key = P256.Signing.PrivateKey()
        appStore.verifyOfferSignatures(bundleID: "com.example.app", keyID: "KEY", publicKey: key.publicKey)
        let app = SDKFixture()
        await app.server.signOffers(with: key, bundleID: "com.example.app")
        await app.server.judgeIntroOffer(of: "pro.monthly", eligible: false)
        await appStore.run {
            let bought = await Self.sdk(app, appStore, serverDecides: true).purchase(StoreProduct(id: "pro.monthly"))
            guard case .success = bought else { Issue.record("\(bought)"); return }
            #expect(await app.server.introVerdictsAsked == ["pro.monthly"])
            let verdict = try? #require(Self.verdicts(appStore).first ?? nil)
            let claims = verdict.flatMap { JWTClaims.of($0) }
            #expect(claims?["allowIntroductoryOffer"] as? Bool == false && claims?["productId"] as? String == "pro.monthly")
        }
    }

    @Test func aVerdictTheDevelopersKeyDidNotSignIsRefusedBeforeAnyPayment() async throws {
        let appStore = StoreKit2AdapterTests.store()
        appStore.verifyOfferSignatures(bundleID: "com.example.app", keyID: "KEY", publicKey: P256.Signing.PrivateKey().publicKey)
        let app = SDKFixture()
        await app.server.signOffers(with: P256.Signing.PrivateKey(), bundleID: "com.example.app")
        await appStore.run {
            let forged = await Self.sdk(app, appStore, serverDecides: true).purchase(StoreProduct(id: "pro.monthly"))
            guard case .failed(let error) = forged else { Issue.record("\(forged)"); return }
            #expect(error.underlyingError as? Product.PurchaseError == .invalidOfferSignature)
            #expect(await app.server.posts.isEmpty)
        }
    }

    @Test func withoutTheSettingOrAVerdictApplesRuleApplies() async throws {
        let appStore = StoreKit2AdapterTests.store()
        let app = SDKFixture()
        await appStore.run {
            // Not asked for: no request, no option.
            guard case .success = await Self.sdk(app, appStore, serverDecides: false).purchase(StoreProduct(id: "pro.monthly")) else {
                Issue.record("not bought")
                return
            }
            #expect(await app.server.introVerdictsAsked.isEmpty)
            // Asked for, but the server has no key to sign with: the purchase goes ahead without it.
            guard case .success = await Self.sdk(app, appStore, serverDecides: true).purchase(StoreProduct(id: "pro.monthly")) else {
                Issue.record("not bought")
                return
            }
            #expect(await app.server.introVerdictsAsked == ["pro.monthly"])
            #expect(Self.verdicts(appStore) == [nil, nil])
        }
    }
}

/// The claims of a compact JWS, unverified (the App Store verified it).
enum JWTClaims {
    static func of(_ compactJWS: String) -> [String: Any]? {
        let parts = compactJWS.split(separator: ".")
        guard parts.count == 3 else { return nil }
        var base64 = parts[1].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        return Data(base64Encoded: base64).flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] }
    }
}
#endif
