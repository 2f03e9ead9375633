import PerennialWire
import Foundation
import PerennialAppStore
import PerennialCore
import PerennialFuzzTargets
import PerennialServer
import PerennialSimulator
import SwiftASN1
import Testing
import X509

/// Writes the fuzz corpus's seeds: real payloads from the simulator (signed transactions and
/// renewal infos, notification bodies V1 and V2, receipts, a retention request, a status answer),
/// the client routes' bodies, an app-user token and the dashboard's forms, with the roots they
/// chain to beside them. Only `seed-…` entries are replaced; regressions and libFuzzer's finds stay.
///
/// Run it when a payload's shape changes: `PERENNIAL_UPDATE_FUZZ_CORPUS=1 swift test --filter FuzzCorpusSeeds`.
@Suite struct FuzzCorpusSeeds {
    /// An offering with every field, as an operator adds one.
    static let offering = #"""
        {"id":"winter-sale","products":["pro.monthly","basic.monthly"],"priority":10,"isDefault":false,\#
        "metadata":{"en":{"title":"Winter sale","discount":0.5,"order":[2,1],"badge":null,"show":true},"de":{"title":"Winterangebot"}},\#
        "targeting":{"storefronts":["DEU","AUT"],"minimumAppVersion":"2.0","maximumAppVersion":"3.1.4","audiences":["new","lapsed"]}}
        """#

    @Test(.enabled(if: ProcessInfo.processInfo.environment["PERENNIAL_UPDATE_FUZZ_CORPUS"] == "1"))
    func writeTheSeeds() throws {
        var world = try StoreWorld(bundleID: FuzzSetup.bundleID)
        let wire = WireConfiguration(appAppleID: FuzzSetup.appAppleID, bundleVersion: "1.0", sharedSecret: FuzzSetup.sharedSecret)
        world.emitter = NotificationEmitter(pki: world.pki, configuration: wire)
        let (transaction, bought) = try world.buy("pro.monthly")
        let original = transaction.originalTransactionID
        let renewed = try world.perform(.advance(to: try #require(transaction.expiresDate).addingTimeInterval(1))).notifications
        let turnedOff = try world.perform(.setAutoRenew(originalTransactionID: original, enabled: false)).notifications
        let refunded = try world.perform(.refund(transactionID: original, amount: .full, reason: .other)).notifications
        let (lifetime, oneTime) = try world.buy("lifetime")
        let notifications = bought + renewed + turnedOff + refunded + oneTime
        let signedTransaction = try world.signed(transaction)
        let renewalInfo = try #require(bought.first?.payload.data?.signedRenewalInfo)
        let retention = try world.pki.sign(
            DecodedRealtimeRequestBody(
                originalTransactionId: original, productId: "pro.monthly", userLocale: "en-US",
                requestIdentifier: "3f2a7c1e-5b8d-4e0f-9a6b-1c2d3e4f5a6b", environment: .sandbox, signedDate: world.state.now))
        let appTransaction = try AppTransactionTests.signed()
        let receipt = try DeviceReceipt(account: StoreWorld.alice, bundleID: FuzzSetup.bundleID, state: world.state, pki: world.pki, configuration: wire)
        let statuses = StatusResponse(
            environment: .sandbox, bundleId: FuzzSetup.bundleID,
            data: [
                SubscriptionGroupIdentifierItem(
                    subscriptionGroupIdentifier: "premium",
                    lastTransactions: [
                        LastTransactionsItem(status: .active, originalTransactionId: original, signedTransactionInfo: signedTransaction, signedRenewalInfo: renewalInfo)
                    ])
            ])
        let signed = [
            "transaction": signedTransaction, "lifetime-transaction": try world.signed(lifetime), "renewal-info": renewalInfo,
            "notification": try #require(renewed.first?.body.signedPayload), "retention-request": retention, "app-transaction": appTransaction,
        ]
        let json = JSONEncoder()
        var seeds: [String: [String: Data]] = [
            "appReceipt": [
                "app-receipt.der": receipt.der, "app-receipt.base64": Data(receipt.base64.utf8),
                "transaction-receipt.base64": Data(try TransactionReceiptAuthoring.receipt(of: transaction, pki: world.pki, configuration: wire).utf8),
            ],
            "compactJWS": signed.mapValues { Data($0.utf8) },
            "signedPayloadJSON": try signed.mapValues { try JWSDecoding.unverifiedPayload(of: $0) },
            "notificationV2Body": [:],
            "notificationV1Body": [:],
            "retentionRequestBody": ["request.json": try json.encode(RealtimeRequestBody(signedPayload: retention))],
            "serverAPIStatuses": ["statuses.json": try json.encode(statuses)],
            "clientRequestBodies": [
                "receipt.json": try json.encode(ReceiptRequest(receipt: receipt.base64)),
                "transaction.json": try json.encode(SignedTransactionRequest(signedTransaction: signedTransaction)),
                "app-transaction.json": try json.encode(AppTransactionRequest(signedAppTransaction: appTransaction)),
                "eligibility.json": try json.encode(EligibilityRequest(productIds: ["pro.monthly", "basic.monthly"])),
                "consumption.json": try json.encode(ConsumptionReportRequest(consumedPercent: 42.5, deliveryStatus: "DELIVERED", sampleContentProvided: false)),
                "offer.json": try json.encode(OfferSignatureRequest(productId: "pro.monthly", offerId: "winback")),
            ],
            "offerings": [
                "offering.json": Data(Self.offering.utf8),
                "query": Data("usa\n2.10.1".utf8),
            ],
            "experiments": [
                "experiment.json": Data(
                    #"""
                    {"id": "price-2026", "name": "Pro against basic", "audience": {"audiences": ["new"], "storefronts": ["USA"]},
                     "variants": [{"id": "a", "offeringId": "default", "weight": 30}, {"id": "b", "offeringId": "pro", "weight": 70}]}
                    """#.utf8),
                "rollout.json": Data(#"{"winner": "b"}"#.utf8),
            ],
            "userToken": [
                "token": Data(UserTokenTests.hs256(sub: FuzzSetup.user, exp: FuzzSetup.now.addingTimeInterval(86_400), secret: FuzzSetup.userTokenSecret).utf8),
                "claims.json": Data(#"{"sub":"\#(FuzzSetup.user)","exp":\#(Int(FuzzSetup.now.timeIntervalSince1970) + 86_400)}"#.utf8),
            ],
            "dashboardForm": [
                "sign-in": Data("csrf=7d0c4f2a9b1e&key=sk_test_admin&next=%2Fdashboard%2Fapps%2Fdemo%2Fsubscribers%2Falice".utf8),
                "search": Data("q=alice+".utf8),
                "grant": Data("csrf=7d0c4f2a9b1e&entitlementId=pro&duration=P1M&reason=goodwill+gesture".utf8),
                "offering": Data(
                    "csrf=7d0c4f2a9b1e&id=winter-sale&products=pro.monthly%2C+basic.monthly&priority=10&isDefault=on&storefronts=USA+DEU&minimumAppVersion=2.0&audienceLapsed=on&metadata=%7B%22en%22%3A%7B%22title%22%3A%22Sale%22%7D%7D"
                        .utf8),
            ],
        ]
        for (index, notification) in notifications.enumerated() {
            let name = "\(index)-\(notification.intent.type.rawValue)"
            seeds["notificationV2Body"]?["\(name).json"] = try notification.v2Body()
            seeds["notificationV1Body"]?["\(name).json"] = try notification.v1Body()
        }

        let receiptRoot = try #require(world.pki.receipts?.root)
        try world.pki.jws.root.serializeAsPEM().pemString.write(to: FuzzCorpus.directory.appendingPathComponent(FuzzSetup.jwsRootFile), atomically: true, encoding: .utf8)
        try receiptRoot.serializeAsPEM().pemString.write(to: FuzzCorpus.directory.appendingPathComponent(FuzzSetup.receiptRootFile), atomically: true, encoding: .utf8)
        for (target, entries) in seeds {
            let folder = FuzzCorpus.directory.appendingPathComponent(target)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            for old in try FileManager.default.contentsOfDirectory(atPath: folder.path) where old.hasPrefix("seed-") {
                try FileManager.default.removeItem(at: folder.appendingPathComponent(old))
            }
            for (name, bytes) in entries { try bytes.write(to: folder.appendingPathComponent("seed-\(name)")) }
        }
    }
}
