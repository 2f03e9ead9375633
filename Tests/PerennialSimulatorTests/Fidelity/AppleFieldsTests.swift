import Foundation
import PerennialAppStore
import PerennialCore
import PerennialSimulator
import Testing

/// The fields Apple sends that the simulator used to leave out, each with Apple's JSON type:
/// JSONDecoder is type-strict, so a number where Apple sends a string fails to decode.
private enum Typed {
    struct Transaction: Decodable {
        let storefront: String
        let storefrontId: String
        let appTransactionId: String
    }

    struct RenewalInfo: Decodable {
        let appTransactionId: String
        let offerType: Int?
        let offerDiscountType: String?
        let offerPeriod: String?
        let offerIdentifier: String?
        let eligibleWinBackOfferIds: [String]?
    }

    struct Notification: Decodable {
        struct Data: Decodable {
            let bundleVersion: String
            let signedTransactionInfo: String
            let signedRenewalInfo: String?
        }
        let notificationType: String
        let data: Data
    }

    static func payload<T: Decodable>(_ type: T.Type, of jws: String) throws -> T {
        try JSONDecoder().decode(T.self, from: WirePKI.payloadBytes(jws))
    }
}

@Suite("Fields Apple sends: storefrontId, appTransactionId, renewal offers, win-back ids, bundleVersion")
struct AppleFieldsTests {
    @Test func storefrontIdsFollowTheAccountsStorefront() {
        #expect(StorefrontIdentifier.of("USA") == "143441")
        #expect(StorefrontIdentifier.of("FRA") == "143442")
        #expect(StorefrontIdentifier.of("GBR") == "143444")
        #expect(StorefrontIdentifier.of("DEU") == "143443")
        #expect(StorefrontIdentifier.of("ZZZ") == nil)
    }

    @Test func appTransactionIdsAreStablePerAccountAndApp() {
        let alice = AppTransactionIdentifier.of(accountID: "alice", bundleID: "com.example.app")
        #expect(alice == AppTransactionIdentifier.of(accountID: "alice", bundleID: "com.example.app"))
        #expect(alice != AppTransactionIdentifier.of(accountID: "bob", bundleID: "com.example.app"))
        #expect(alice != AppTransactionIdentifier.of(accountID: "alice", bundleID: "com.example.other"))
        #expect(alice.count == 18 && alice.allSatisfy(\.isNumber))
    }

    @Test func everyPayloadCarriesTheNewFieldsWithApplesTypes() async throws {
        let transport = RecordingTransport()
        let simulator = try await FidelityWorld.simulator(transport: transport, winBackOfferIDs: ["pro.monthly": ["winback.pro.1", "winback.pro.2"]])
        let (alice, bob) = try await FidelityWorld.aliceAndBobBuy(simulator)

        // Transactions: storefrontId from the account's storefront, one appTransactionId per account.
        let aliceTransaction = try Typed.payload(Typed.Transaction.self, of: alice.signedTransaction)
        #expect(aliceTransaction.storefront == "USA" && aliceTransaction.storefrontId == "143441")
        let bobTransaction = try Typed.payload(Typed.Transaction.self, of: bob.signedTransaction)
        #expect(bobTransaction.storefront == "FRA" && bobTransaction.storefrontId == "143442")
        #expect(aliceTransaction.appTransactionId == AppTransactionIdentifier.of(accountID: RuntimeFixture.alice, bundleID: RuntimeFixture.bundleID))
        #expect(aliceTransaction.appTransactionId != bobTransaction.appTransactionId)

        // PerennialAppStore's decoder reads them.
        let verified = try await RuntimeFixture.verifier().verifyTransaction(alice.signedTransaction)
        #expect(verified.storefrontId == "143441")
        #expect(verified.appTransactionId == aliceTransaction.appTransactionId)

        // The customer lets the subscription lapse: it expires and becomes eligible for win-back.
        _ = try await simulator.perform(.setAutoRenew(originalTransactionID: alice.transaction.originalTransactionID, enabled: false))
        _ = try await simulator.advance(by: 301)

        let notifications = try FidelityWorld.signedPayloads(transport).map { try Typed.payload(Typed.Notification.self, of: $0) }
        #expect(notifications.allSatisfy { $0.data.bundleVersion == "1.2.3" })
        let aliceNotifications = try notifications.filter {
            try Typed.payload(Typed.Transaction.self, of: $0.data.signedTransactionInfo).appTransactionId == aliceTransaction.appTransactionId
        }
        let subscribed = try #require(aliceNotifications.first { $0.notificationType == "SUBSCRIBED" })
        let renewal = try Typed.payload(Typed.RenewalInfo.self, of: try #require(subscribed.data.signedRenewalInfo))
        #expect(renewal.appTransactionId == aliceTransaction.appTransactionId)
        #expect(renewal.offerType == 1)
        #expect(renewal.offerDiscountType == "PAY_AS_YOU_GO")
        #expect(renewal.offerPeriod == "P1M")
        #expect(renewal.eligibleWinBackOfferIds == nil)

        let expired = try #require(aliceNotifications.first { $0.notificationType == "EXPIRED" })
        let signedExpired = try #require(expired.data.signedRenewalInfo)
        let lapsed = try Typed.payload(Typed.RenewalInfo.self, of: signedExpired)
        #expect(lapsed.eligibleWinBackOfferIds == ["winback.pro.1", "winback.pro.2"])
        #expect(lapsed.offerType == nil && lapsed.offerDiscountType == nil)
        let decoded = try await RuntimeFixture.verifier().verifyRenewalInfo(signedExpired)
        #expect(decoded.eligibleWinBackOfferIds == ["winback.pro.1", "winback.pro.2"])
        #expect(decoded.appTransactionId == aliceTransaction.appTransactionId)

        // Bob's full-price subscription has no renewal offer.
        let bobSubscribed = try #require(notifications.first {
            $0.notificationType == "SUBSCRIBED" && (try? Typed.payload(Typed.Transaction.self, of: $0.data.signedTransactionInfo).storefront) == "FRA"
        })
        let bobRenewal = try Typed.payload(Typed.RenewalInfo.self, of: try #require(bobSubscribed.data.signedRenewalInfo))
        #expect(bobRenewal.offerType == nil && bobRenewal.offerPeriod == nil)
    }

    @Test func aFreeTrialEndsWithItsPeriodSoTheRenewalHasNoOffer() throws {
        #expect(SubscriptionLifecycle.offerContinuing(Offer(type: .introductory, paymentMode: .freeTrial, period: "P1W")) == nil)
        #expect(SubscriptionLifecycle.offerContinuing(Offer(type: .promotional, id: "p", paymentMode: .payUpFront)) == nil)
        let payAsYouGo = Offer(type: .promotional, id: "promo", paymentMode: .payAsYouGo, period: "P3M")
        #expect(SubscriptionLifecycle.offerContinuing(payAsYouGo) == payAsYouGo)
    }
}
