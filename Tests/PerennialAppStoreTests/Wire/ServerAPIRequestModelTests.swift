import Foundation
import PerennialAppStore
import Testing

/// A request body and the exact JSON Apple expects for it.
struct BodyCase: Sendable, CustomTestStringConvertible {
    let body: any Encodable & Sendable
    let expected: String
    var testDescription: String { "\(type(of: body))" }
}

@Suite("Server API request models")
struct ServerAPIRequestModelTests {
    @Test("transaction history filters render as Apple's query parameters")
    func historyQuery() {
        let request = TransactionHistoryRequest(
            startDate: Date(timeIntervalSince1970: 123.455),
            endDate: Date(timeIntervalSince1970: 123.456),
            productIds: ["com.example.1", "com.example.2"],
            productTypes: [.consumable, .autoRenewable],
            sort: .ascending,
            subscriptionGroupIdentifiers: ["sub_group_id", "sub_group_id_2"],
            inAppOwnershipType: .familyShared,
            revoked: false
        )
        let items = request.queryItems(revision: "revision_input").map { "\($0.name)=\($0.value ?? "")" }
        #expect(items == [
            "revision=revision_input", "startDate=123455", "endDate=123456",
            "productId=com.example.1", "productId=com.example.2",
            "productType=CONSUMABLE", "productType=AUTO_RENEWABLE", "sort=ASCENDING",
            "subscriptionGroupIdentifier=sub_group_id", "subscriptionGroupIdentifier=sub_group_id_2",
            "inAppOwnershipType=FAMILY_SHARED", "revoked=false",
        ])
        #expect(TransactionHistoryRequest().queryItems().isEmpty)
    }

    @Test("request bodies encode with Apple's names and forms", arguments: [
        BodyCase(body: NotificationHistoryRequest(
            startDate: WireJSON.ms(1_698_148_900_000), endDate: WireJSON.ms(1_698_148_950_000),
            notificationType: .subscribed, notificationSubtype: .initialBuy, transactionId: "999733843", onlyFailures: true),
         expected: #"{"endDate":1698148950000,"notificationSubtype":"INITIAL_BUY","notificationType":"SUBSCRIBED","onlyFailures":true,"startDate":1698148900000,"transactionId":"999733843"}"#),
        BodyCase(body: ExtendRenewalDateRequest(extendByDays: 45, extendReasonCode: .customerSatisfaction, requestIdentifier: "fdf964a4"),
         expected: #"{"extendByDays":45,"extendReasonCode":1,"requestIdentifier":"fdf964a4"}"#),
        BodyCase(body: MassExtendRenewalDateRequest(
            extendByDays: 45, extendReasonCode: .serviceIssueOrOutage, requestIdentifier: "fdf964a4",
            storefrontCountryCodes: ["USA", "MEX"], productId: "com.example.productId"),
         expected: #"{"extendByDays":45,"extendReasonCode":3,"productId":"com.example.productId","requestIdentifier":"fdf964a4","storefrontCountryCodes":["USA","MEX"]}"#),
        BodyCase(body: ConsumptionRequest(
            customerConsented: true, consumptionPercentage: 50_000, deliveryStatus: .delivered,
            refundPreference: .grantProrated, sampleContentProvided: false),
         expected: #"{"consumptionPercentage":50000,"customerConsented":true,"deliveryStatus":"DELIVERED","refundPreference":"GRANT_PRORATED","sampleContentProvided":false}"#),
        BodyCase(body: ConsumptionRequestV1(
            customerConsented: true, consumptionStatus: .notConsumed, platform: .nonApple, sampleContentProvided: false,
            deliveryStatus: .didNotDeliverDueToServerOutage, appAccountToken: UUID(uuidString: "7389A31A-FB6D-4569-A2A6-DB7D85D84813"),
            accountTenure: .thirtyDaysToNinetyDays, playTime: .oneDayToFourDays,
            lifetimeDollarsRefunded: .oneThousandDollarsToOneThousandNineHundredNinetyNineDollarsAndNinetyNineCents,
            lifetimeDollarsPurchased: .twoThousandDollarsOrGreater, userStatus: .limitedAccess, refundPreference: .noPreference),
         expected: #"{"accountTenure":4,"appAccountToken":"7389A31A-FB6D-4569-A2A6-DB7D85D84813","consumptionStatus":1,"customerConsented":true,"deliveryStatus":3,"lifetimeDollarsPurchased":7,"lifetimeDollarsRefunded":6,"platform":2,"playTime":5,"refundPreference":3,"sampleContentProvided":false,"userStatus":4}"#),
        BodyCase(body: UpdateAppAccountTokenRequest(appAccountToken: UUID(uuidString: "7389A31A-FB6D-4569-A2A6-DB7D85D84813")),
         expected: #"{"appAccountToken":"7389A31A-FB6D-4569-A2A6-DB7D85D84813"}"#),
    ])
    func bodies(testCase: BodyCase) throws {
        #expect(String(decoding: try WireJSON.encode(testCase.body), as: UTF8.self) == testCase.expected)
    }
}
