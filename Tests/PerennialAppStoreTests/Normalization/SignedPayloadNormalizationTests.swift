import Foundation
import PerennialAppStore
import PerennialCore
import PerennialTestSupport
import Testing

@Suite("Signed payload normalization")
struct SignedPayloadNormalizationTests {
    @Test("Apple's signed transaction fixture becomes a Core transaction", .enabled(if: Fixtures.isAvailable))
    func transactionFixture() throws {
        let payload = try JSONDecoder().decode(
            JWSTransactionDecodedPayload.self,
            from: try Fixtures.data("apple-server-library/models/signedTransactionWithRevocation.json"))
        let transaction = try payload.transaction(source: .serverAPI)
        #expect(transaction == Transaction(
            transactionID: "23456", originalTransactionID: "12345", webOrderLineItemID: "34343",
            bundleID: "com.example", productID: "com.example.product", productType: .autoRenewable,
            subscriptionGroupID: "55555", purchaseDate: WireJSON.ms(1_698_148_900_000),
            originalPurchaseDate: WireJSON.ms(1_698_148_800_000), expiresDate: WireJSON.ms(1_698_149_000_000),
            quantity: 1, ownership: .purchased, reason: .purchase,
            offer: Offer(type: .introductory, id: "abc.123", paymentMode: .payAsYouGo, period: "P1Y"),
            isUpgraded: true,
            revocation: Revocation(date: WireJSON.ms(1_698_148_950_000), reason: .developerIssue, type: .refundProrated, percentage: 50_000),
            price: Money(milliUnits: 10_990, currency: "USD"), storefront: "USA",
            appAccountToken: UUID(uuidString: "7e3fb20b-4cdb-47cc-936d-99d65f608138"),
            environment: .localTesting,
            provenance: Provenance(source: .serverAPI, versionDate: WireJSON.ms(1_698_148_900_000), isSigned: true)))
    }

    @Test("Apple's renewal info fixture becomes Core renewal info", .enabled(if: Fixtures.isAvailable))
    func renewalFixture() throws {
        let payload = try JSONDecoder().decode(
            JWSRenewalInfoDecodedPayload.self,
            from: try Fixtures.data("apple-server-library/models/signedRenewalInfo.json"))
        let info = try payload.renewalInfo(source: .notificationV2)
        #expect(info == RenewalInfo(
            originalTransactionID: "12345", productID: "com.example.product",
            autoRenewProductID: "com.example.product.2", willAutoRenew: true, expirationReason: .voluntary,
            isInBillingRetry: true, gracePeriodExpiresDate: WireJSON.ms(1_698_148_900_000), priceIncreaseStatus: .pending,
            offer: Offer(type: .promotional, id: "abc.123", paymentMode: .payAsYouGo, period: "P1Y"),
            renewalPrice: Money(milliUnits: 9990, currency: "USD"), renewalDate: WireJSON.ms(1_698_148_850_000),
            recentSubscriptionStartDate: WireJSON.ms(1_698_148_800_000), eligibleWinBackOfferIDs: ["eligible1", "eligible2"],
            appAccountToken: UUID(uuidString: "7e3fb20b-4cdb-47cc-936d-99d65f608138"), billingPlan: .monthly,
            commitment: CommitmentRenewal(
                willAutoRenew: true, autoRenewProductID: "com.example.product.commitment", billingPlan: .monthly,
                renewalDate: WireJSON.ms(1_698_149_500_000), renewalPrice: Money(milliUnits: 9990, currency: "USD")),
            environment: .localTesting,
            provenance: Provenance(source: .notificationV2, versionDate: WireJSON.ms(1_698_148_800_000), isSigned: true)))
    }

    @Test("unknown Apple values are kept raw in Core's open values")
    func unknownValues() throws {
        let payload = try WireJSON.decode(JWSTransactionDecodedPayload.self, """
        {"transactionId": "1", "originalTransactionId": "1", "productId": "p", "purchaseDate": 1000, "signedDate": 2000,
         "environment": "Staging", "type": "Super Subscription", "inAppOwnershipType": "CLOUD_SHARED",
         "transactionReason": "GIFT", "offerType": 7, "offerDiscountType": "ONE_TIME", "revocationDate": 1500,
         "revocationReason": 9, "revocationType": "REFUND_PARTIAL"}
        """)
        let transaction = try payload.transaction(source: .signedTransaction)
        #expect(transaction.environment == AppStoreEnvironment(rawValue: "apple:Staging"))
        #expect(transaction.productType == ProductType(rawValue: "apple:Super Subscription"))
        #expect(transaction.ownership == Ownership(rawValue: "apple:CLOUD_SHARED"))
        #expect(transaction.reason == TransactionReason(rawValue: "apple:GIFT"))
        #expect(transaction.offer == Offer(type: OfferType(rawValue: "apple:7"), paymentMode: OfferPaymentMode(rawValue: "apple:ONE_TIME")))
        #expect(transaction.revocation?.reason == RevocationReason(rawValue: "apple:9"))
        #expect(transaction.revocation?.type == RevocationType(rawValue: "apple:REFUND_PARTIAL"))

        let renewal = try WireJSON.decode(JWSRenewalInfoDecodedPayload.self, """
        {"originalTransactionId": "1", "productId": "p", "autoRenewStatus": 1, "signedDate": 2000, "environment": "Sandbox",
         "expirationIntent": 8, "priceIncreaseStatus": 3, "offerType": 4}
        """).renewalInfo(source: .serverAPI)
        #expect(renewal.expirationReason == ExpirationReason(rawValue: "apple:8"))
        #expect(renewal.priceIncreaseStatus == PriceIncreaseStatus(rawValue: "apple:3"))
        #expect(renewal.offer?.type == .winBack)
    }

    @Test("each known raw value maps to Core's name", arguments: [
        (1, OfferType.introductory), (2, .promotional), (3, .offerCode), (4, .winBack),
    ])
    func offerTypes(raw: Int, expected: OfferType) throws {
        let payload = JWSTransactionDecodedPayload(
            originalTransactionId: "1", transactionId: "1", productId: "p", purchaseDate: WireJSON.ms(1000),
            signedDate: WireJSON.ms(2000), offerType: AppleOfferType(rawValue: raw), environment: .production)
        #expect(try payload.transaction(source: .signedTransaction).offer?.type == expected)
    }

    @Test("expiration intents map to Core's reasons", arguments: [
        (1, ExpirationReason.voluntary), (2, .billingError), (3, .declinedPriceIncrease), (4, .productUnavailable), (5, .other),
    ])
    func expirationIntents(raw: Int, expected: ExpirationReason) throws {
        let payload = JWSRenewalInfoDecodedPayload(
            expirationIntent: AppleExpirationIntent(rawValue: raw), originalTransactionId: "1", productId: "p",
            autoRenewStatus: .off, signedDate: WireJSON.ms(2000), environment: .sandbox)
        #expect(try payload.renewalInfo(source: .serverAPI).expirationReason == expected)
    }

    @Test("a signed transaction without a mandatory field is named", arguments: [
        "transactionId", "originalTransactionId", "productId", "purchaseDate", "signedDate", "environment",
    ])
    func missingTransactionField(field: String) throws {
        var members: [String: String] = [
            "transactionId": #""1""#, "originalTransactionId": #""1""#, "productId": #""p""#,
            "purchaseDate": "1000", "signedDate": "2000", "environment": #""Sandbox""#,
        ]
        members[field] = nil
        let json = "{" + members.map { "\"\($0.key)\": \($0.value)" }.joined(separator: ",") + "}"
        let payload = try WireJSON.decode(JWSTransactionDecodedPayload.self, json)
        do {
            _ = try payload.transaction(source: .signedTransaction)
            Issue.record("a payload without \(field) must not normalize")
        } catch {
            guard case .missingField(let missing, _) = error else {
                Issue.record("unexpected error \(error)")
                return
            }
            #expect(missing == field)
        }
    }

    @Test("renewal info with an auto-renew status other than 0 or 1 is refused")
    func oddAutoRenewStatus() {
        let payload = JWSRenewalInfoDecodedPayload(
            originalTransactionId: "1", productId: "p", autoRenewStatus: 2, signedDate: WireJSON.ms(2000), environment: .sandbox)
        #expect(throws: NormalizationError.invalidValue(field: "auto renew status", value: "2", record: "signed renewal info 1")) {
            try payload.renewalInfo(source: .serverAPI)
        }
    }
}
