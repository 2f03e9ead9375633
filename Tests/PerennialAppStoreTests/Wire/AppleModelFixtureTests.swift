import Foundation
import PerennialAppStore
import PerennialTestSupport
import Testing

/// One file of Apple's model fixtures and the model it must decode into.
struct ModelFixture: Sendable, CustomTestStringConvertible {
    let file: String
    /// Decodes the bytes into the model and re-encodes the model.
    let roundTrip: @Sendable (Data) throws -> Data

    var testDescription: String { file }

    static func of<Model: Codable & SendableMetatype>(_ file: String, _ model: Model.Type) -> ModelFixture {
        ModelFixture(file: file) { data in
            try WireJSON.encode(try JSONDecoder().decode(Model.self, from: data))
        }
    }

    static let directory = "apple-server-library/models"

    /// Every fixture file and its model. Payloads that are decoded JWS map to the payload types.
    static let all: [ModelFixture] = [
        .of("apiException.json", APIErrorBody.self),
        .of("apiTooManyRequestsException.json", APIErrorBody.self),
        .of("apiUnknownError.json", APIErrorBody.self),
        .of("appData.json", NotificationAppData.self),
        .of("appTransaction.json", AppTransaction.self),
        .of("appTransactionDoesNotExistError.json", APIErrorBody.self),
        .of("appTransactionInfoResponse.json", AppTransactionInfoResponse.self),
        .of("decodedRealtimeRequest.json", DecodedRealtimeRequestBody.self),
        .of("extendRenewalDateForAllActiveSubscribersResponse.json", MassExtendRenewalDateResponse.self),
        .of("extendSubscriptionRenewalDateResponse.json", ExtendRenewalDateResponse.self),
        .of("familyTransactionNotSupportedError.json", APIErrorBody.self),
        .of("getAllSubscriptionStatusesResponse.json", StatusResponse.self),
        .of("getDefaultMessageResponse.json", GetDefaultMessageResponse.self),
        .of("getImageListResponse.json", GetImageListResponse.self),
        .of("getMessageListResponse.json", GetMessageListResponse.self),
        .of("getNotificationHistoryResponse.json", NotificationHistoryResponse.self),
        .of("getRealtimeUrlResponse.json", GetRealtimeURLResponse.self),
        .of("getRefundHistoryResponse.json", RefundHistoryResponse.self),
        .of("getStatusOfSubscriptionRenewalDateExtensionsResponse.json", MassExtendRenewalDateStatusResponse.self),
        .of("getTestNotificationStatusResponse.json", CheckTestNotificationResponse.self),
        .of("invalidAppAccountTokenUUIDError.json", APIErrorBody.self),
        .of("invalidTransactionIdError.json", APIErrorBody.self),
        .of("lookupOrderIdResponse.json", OrderLookupResponse.self),
        .of("performanceTestResponse.json", PerformanceTestResponse.self),
        .of("performanceTestResultResponse.json", PerformanceTestResultResponse.self),
        .of("requestTestNotificationResponse.json", SendTestNotificationResponse.self),
        .of("signedConsumptionRequestNotification.json", ResponseBodyV2DecodedPayload.self),
        .of("signedExternalPurchaseTokenNotification.json", ResponseBodyV2DecodedPayload.self),
        .of("signedExternalPurchaseTokenSandboxNotification.json", ResponseBodyV2DecodedPayload.self),
        .of("signedNotification.json", ResponseBodyV2DecodedPayload.self),
        .of("signedRenewalInfo.json", JWSRenewalInfoDecodedPayload.self),
        .of("signedRescindConsentNotification.json", ResponseBodyV2DecodedPayload.self),
        .of("signedSummaryNotification.json", ResponseBodyV2DecodedPayload.self),
        .of("signedTransaction.json", JWSTransactionDecodedPayload.self),
        .of("signedTransactionWithRevocation.json", JWSTransactionDecodedPayload.self),
        .of("transactionHistoryResponse.json", HistoryResponse.self),
        .of("transactionHistoryResponseWithMalformedEnvironment.json", HistoryResponse.self),
        .of("transactionIdNotFoundError.json", APIErrorBody.self),
        .of("transactionIdNotOriginalTransactionId.json", APIErrorBody.self),
        .of("transactionInfoResponse.json", TransactionInfoResponse.self),
    ]

    /// Fixtures Apple's own libraries expect to fail decoding.
    static let malformed: [String] = ["transactionHistoryResponseWithMalformedAppAppleId.json"]
}

@Suite("Apple's model fixtures", .enabled(if: Fixtures.isAvailable))
struct AppleModelFixtureTests {
    @Test("every fixture file has a model or is known malformed")
    func tableCoversDirectory() throws {
        let files = try Fixtures.files(under: ModelFixture.directory).map { ($0 as NSString).lastPathComponent }
        let mapped = Set(ModelFixture.all.map(\.file) + ModelFixture.malformed)
        #expect(Set(files) == mapped)
    }

    @Test("decodes and re-encodes with Apple's key set", arguments: ModelFixture.all)
    func roundTrip(fixture: ModelFixture) throws {
        let original = try Fixtures.data("\(ModelFixture.directory)/\(fixture.file)")
        let reencoded = try fixture.roundTrip(original)
        #expect(try WireJSON.keyPaths(reencoded) == WireJSON.keyPaths(original))
    }

    @Test("re-encoding a fixture keeps its values")
    func valuesSurvive() throws {
        let original = try Fixtures.data("\(ModelFixture.directory)/signedTransaction.json")
        let payload = try JSONDecoder().decode(JWSTransactionDecodedPayload.self, from: original)
        let again = try JSONDecoder().decode(JWSTransactionDecodedPayload.self, from: try WireJSON.encode(payload))
        #expect(again == payload)
        let reencoded = try JSONSerialization.jsonObject(with: try WireJSON.encode(payload)) as? [String: Any]
        #expect(reencoded?["purchaseDate"] as? Int64 == 1_698_148_900_000)
        #expect(reencoded?["transactionId"] as? String == "23456")
    }

    @Test("a malformed appAppleId is a decoding error, not nil", arguments: ModelFixture.malformed)
    func malformedFails(file: String) throws {
        let data = try Fixtures.data("\(ModelFixture.directory)/\(file)")
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(HistoryResponse.self, from: data) }
    }

    @Test("an unknown environment is kept raw")
    func unknownEnvironment() throws {
        let data = try Fixtures.data("\(ModelFixture.directory)/transactionHistoryResponseWithMalformedEnvironment.json")
        let response = try JSONDecoder().decode(HistoryResponse.self, from: data)
        #expect(response.environment == AppleEnvironment(rawValue: "LocalTestingxxx"))
        #expect(response.appAppleId == 323_232)
    }

    @Test("the decoded signed transaction carries Apple's values")
    func signedTransactionValues() throws {
        let data = try Fixtures.data("\(ModelFixture.directory)/signedTransactionWithRevocation.json")
        let payload = try JSONDecoder().decode(JWSTransactionDecodedPayload.self, from: data)
        #expect(payload.transactionId == "23456")
        #expect(payload.originalTransactionId == "12345")
        #expect(payload.purchaseDate == WireJSON.ms(1_698_148_900_000))
        #expect(payload.type == .autoRenewable)
        #expect(payload.offerType == .introductoryOffer)
        #expect(payload.revocationReason == .refundedDueToIssue)
        #expect(payload.revocationType == .refundProrated)
        #expect(payload.revocationPercentage == 50_000)
        #expect(payload.price == 10_990)
        #expect(payload.isUpgraded == true)
        #expect(payload.appAccountToken == UUID(uuidString: "7e3fb20b-4cdb-47cc-936d-99d65f608138"))
    }

    @Test("notification payloads pick the right body")
    func notificationBodies() throws {
        let summary = try JSONDecoder().decode(
            ResponseBodyV2DecodedPayload.self,
            from: try Fixtures.data("\(ModelFixture.directory)/signedSummaryNotification.json"))
        #expect(summary.notificationType == .renewalExtension)
        #expect(summary.subtype == .summary)
        #expect(summary.summary?.storefrontCountryCodes == ["CAN", "USA", "MEX"])
        #expect(summary.data == nil)

        let token = try JSONDecoder().decode(
            ResponseBodyV2DecodedPayload.self,
            from: try Fixtures.data("\(ModelFixture.directory)/signedExternalPurchaseTokenSandboxNotification.json"))
        #expect(token.externalPurchaseToken?.isSandbox == true)
        #expect(token.subtype == .unreported)

        let consumption = try JSONDecoder().decode(
            ResponseBodyV2DecodedPayload.self,
            from: try Fixtures.data("\(ModelFixture.directory)/signedConsumptionRequestNotification.json"))
        #expect(consumption.data?.consumptionRequestReason == .unintendedPurchase)
        #expect(consumption.data?.status == .active)
    }
}
