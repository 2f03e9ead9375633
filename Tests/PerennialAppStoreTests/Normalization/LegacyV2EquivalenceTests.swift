import Foundation
import PerennialAppStore
import PerennialCore
import Testing

/// The fields of a transaction that the legacy formats carry; the V2 form must agree on them.
private struct LegacyFacts: Equatable {
    let transactionID: String
    let originalTransactionID: String
    let webOrderLineItemID: String?
    let bundleID: String?
    let productID: String
    let subscriptionGroupID: String?
    let purchaseDate: Date
    let originalPurchaseDate: Date?
    let expiresDate: Date?
    let quantity: Int
    let ownership: Ownership
    let offerType: OfferType?
    let offerID: String?
    let isUpgraded: Bool
    let revocationDate: Date?
    let revocationReason: RevocationReason?
    let appAccountToken: UUID?
    let environment: AppStoreEnvironment

    init(_ transaction: Transaction) {
        transactionID = transaction.transactionID
        originalTransactionID = transaction.originalTransactionID
        webOrderLineItemID = transaction.webOrderLineItemID
        bundleID = transaction.bundleID
        productID = transaction.productID
        subscriptionGroupID = transaction.subscriptionGroupID
        purchaseDate = transaction.purchaseDate
        originalPurchaseDate = transaction.originalPurchaseDate
        expiresDate = transaction.expiresDate
        quantity = transaction.quantity
        ownership = transaction.ownership
        offerType = transaction.offer?.type
        offerID = transaction.offer?.id
        isUpgraded = transaction.isUpgraded
        revocationDate = transaction.revocation?.date
        revocationReason = transaction.revocation?.reason
        appAccountToken = transaction.appAccountToken
        environment = transaction.environment
    }
}

@Suite("Legacy and V2 agree")
struct LegacyV2EquivalenceTests {
    /// One subscription: a free-trial start, a renewal bought with a promotional offer, and an
    /// upgrade that was refunded.
    private static let history: [(id: String, order: String, product: String, purchase: Int64, expires: Int64)] = [
        ("2000000302178785", "2000000023886980", "com.example.monthly", 1_679_734_126_000, 1_679_734_426_000),
        ("2000000302180001", "2000000023886981", "com.example.monthly", 1_679_734_426_000, 1_679_734_726_000),
        ("2000000302596403", "2000000023886982", "com.example.monthly.pro", 1_679_734_600_000, 1_679_734_900_000),
    ]
    private static let token = "7e3fb20b-4cdb-47cc-936d-99d65f608138"

    private static var legacyJSON: String {
        let rows = history.enumerated().map { index, row in
            var members = [
                #""transaction_id": "\#(row.id)""#, #""original_transaction_id": "2000000302178785""#,
                #""web_order_line_item_id": "\#(row.order)""#, #""product_id": "\#(row.product)""#,
                #""subscription_group_identifier": "21289261""#, #""quantity": "1""#,
                #""purchase_date_ms": "\#(row.purchase)""#, #""original_purchase_date_ms": "1679734126000""#,
                #""expires_date_ms": "\#(row.expires)""#, #""in_app_ownership_type": "PURCHASED""#,
                #""app_account_token": "\#(token)""#,
                #""is_trial_period": "\#(index == 0)""#, #""is_in_intro_offer_period": "false""#,
            ]
            if index == 1 { members.append(#""promotional_offer_id": "winter.promo""#) }
            if index == 1 { members.append(#""is_upgraded": "true""#) }
            if index == 2 {
                members += [#""cancellation_date_ms": "1679734700000""#, #""cancellation_reason": "0""#]
            }
            return "{" + members.joined(separator: ", ") + "}"
        }
        return #"{"status": 0, "environment": "Sandbox", "receipt": {"bundle_id": "com.qysmat.app"}, "latest_receipt_info": [\#(rows.joined(separator: ", "))]}"#
    }

    private static var signedPayloads: [JWSTransactionDecodedPayload] {
        history.enumerated().map { index, row in
            JWSTransactionDecodedPayload(
                originalTransactionId: "2000000302178785", transactionId: row.id, webOrderLineItemId: row.order,
                bundleId: "com.qysmat.app", productId: row.product, subscriptionGroupIdentifier: "21289261",
                purchaseDate: WireJSON.ms(row.purchase), originalPurchaseDate: WireJSON.ms(1_679_734_126_000),
                expiresDate: WireJSON.ms(row.expires), quantity: 1, type: .autoRenewable,
                appAccountToken: UUID(uuidString: token), inAppOwnershipType: .purchased,
                signedDate: WireJSON.ms(1_679_899_657_454),
                revocationReason: index == 2 ? .refundedForOtherReason : nil,
                revocationDate: index == 2 ? WireJSON.ms(1_679_734_700_000) : nil,
                isUpgraded: index == 1 ? true : nil,
                offerType: [AppleOfferType.introductoryOffer, .promotionalOffer, nil][index],
                offerIdentifier: index == 1 ? "winter.promo" : nil,
                environment: .sandbox, storefront: "USA", transactionReason: index == 0 ? .purchase : .renewal,
                currency: "USD", price: index == 0 ? 0 : 9990,
                offerDiscountType: [AppleOfferDiscountType.freeTrial, .payUpFront, nil][index])
        }
    }

    @Test("the same history normalizes to the same facts from either form")
    func sameFacts() throws {
        let legacy = try WireJSON.decode(VerifyReceiptResponse.self, Self.legacyJSON)
            .evidenceRecords(answeredAt: WireJSON.ms(1_679_900_000_000)).transactions
        let signed = try Self.signedPayloads.map { try $0.transaction(source: .serverAPI) }
        #expect(legacy.count == 3)
        #expect(legacy.map(LegacyFacts.init) == signed.map(LegacyFacts.init))
        // The free trial's payment mode is the one mode the legacy form does state.
        #expect(legacy[0].offer?.paymentMode == .freeTrial)
        #expect(signed[0].offer?.paymentMode == .freeTrial)
        // What only V2 states stays absent in the legacy form rather than guessed.
        #expect(legacy.allSatisfy { $0.productType == nil && $0.price == nil && $0.reason == nil })
    }

    /// What a subscriber is told: the engine's answer must not depend on which form the history
    /// arrived in.
    private struct StateFacts: Equatable {
        let status: SubscriptionStatus
        let productID: String
        let expiresDate: Date
        let willRenew: Bool
        let renewalProductID: String?
        let revocationDate: Date?
        let activeEntitlements: [String]

        init(_ state: SubscriptionState, _ view: SubscriberView) {
            status = state.status
            productID = state.productID
            expiresDate = state.expiresDate
            willRenew = state.willRenew
            renewalProductID = state.renewalProductID
            revocationDate = state.revocation?.date
            activeEntitlements = view.activeEntitlementIDs
        }
    }

    private static let catalogJSON = """
        {"apps": [{"bundleId": "com.qysmat.app"}],
         "subscriptionGroups": [{"id": "21289261", "products": [
            {"id": "com.example.monthly.pro", "level": 1, "duration": "P1M"},
            {"id": "com.example.monthly", "level": 2, "duration": "P1M"}]}],
         "entitlements": [{"id": "pro", "products": ["com.example.monthly.pro"]},
                          {"id": "basic", "products": ["com.example.monthly", "com.example.monthly.pro"]}]}
        """

    @Test("the engine derives the same state from the legacy and the V2 form", arguments: [
        1_679_734_200_000, 1_679_734_500_000, 1_679_734_650_000, 1_679_734_750_000, 1_679_735_000_000,
    ] as [Int64])
    func sameState(at milliseconds: Int64) throws {
        let engine = SubscriberEngine(catalog: try CatalogLoader.load(json: Data(Self.catalogJSON.utf8)))
        let pending = #"{"original_transaction_id": "2000000302178785", "product_id": "com.example.monthly.pro", "auto_renew_product_id": "com.example.monthly.pro", "auto_renew_status": "1"}"#
        let legacyJSON = Self.legacyJSON.replacingOccurrences(of: #""latest_receipt_info""#, with: #""pending_renewal_info": [\#(pending)], "latest_receipt_info""#)
        let legacy = try WireJSON.decode(VerifyReceiptResponse.self, legacyJSON).evidenceRecords(answeredAt: WireJSON.ms(1_679_900_000_000))
        let renewal = try WireJSON.decode(JWSRenewalInfoDecodedPayload.self, #"{"originalTransactionId": "2000000302178785", "productId": "com.example.monthly.pro", "autoRenewProductId": "com.example.monthly.pro", "autoRenewStatus": 1, "signedDate": 1679899657454, "environment": "Sandbox"}"#)
        let signed = EvidenceRecords(
            transactions: try Self.signedPayloads.map { try $0.transaction(source: .serverAPI) },
            renewalInfos: [try renewal.renewalInfo(source: .serverAPI)]
        )
        #expect(legacy.renewalInfos.count == 1)

        let now = Date(timeIntervalSince1970: Double(milliseconds) / 1000)
        let legacyView = engine.view(of: RecordSet(legacy), at: now)
        let signedView = engine.view(of: RecordSet(signed), at: now)
        #expect(legacyView.subscriptions.count == 1)
        #expect(legacyView.subscriptions.map { StateFacts($0, legacyView) } == signedView.subscriptions.map { StateFacts($0, signedView) })
        if milliseconds == 1_679_734_650_000 {
            // Between the upgrade and its refund: the upgrade took effect at once.
            #expect(signedView.subscriptions.first?.productID == "com.example.monthly.pro")
            #expect(signedView.activeEntitlementIDs.sorted() == ["basic", "pro"])
        }
    }
}
