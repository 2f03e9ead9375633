import Foundation
import Hummingbird
import HummingbirdTesting
import PerennialAppStore
import PerennialCore
@testable import PerennialSimulator
import Testing

/// What the customer sees on the cancellation page when the developer's endpoint answers with the
/// Retention Messaging API 1.4–1.5 fields, checked as Apple checks them.
@Suite struct RetentionDisplayTests {
    static let photo = "5e0c7c1a-6f0e-4b7a-8f4e-1d2c3b4a5f01"
    static let icon = "5e0c7c1a-6f0e-4b7a-8f4e-1d2c3b4a5f02"
    static let rich = "5e0c7c1a-6f0e-4b7a-8f4e-1d2c3b4a5f03"
    static let plain = "5e0c7c1a-6f0e-4b7a-8f4e-1d2c3b4a5f04"

    /// The page shown when the endpoint answers `answer`, with a message with bullet points and
    /// one without anything but text uploaded.
    static func page(answering answer: RealtimeResponseBody) async throws -> RetentionDisplay {
        let router = Router()
        let json = String(decoding: try JSONEncoder().encode(answer), as: UTF8.self)
        router.post("retention") { _, _ -> String in json }
        return try await Application(router: router).test(.live) { endpoint in
            let simulator = try await RuntimeFixture.simulator()
            let messaging = simulator.retentionMessaging
            try await messaging.uploadImage(photo, png: ServerAPIRetentionMessagingTests.png(width: 3840, height: 1080))
            try await messaging.uploadImage(icon, png: ServerAPIRetentionMessagingTests.png(width: 192, height: 192))
            try await messaging.uploadMessage(
                rich,
                UploadMessageRequestBody(
                    header: "Stay", body: "You keep all of this.", image: .init(imageIdentifier: photo, altText: "A mountain"),
                    bulletPoints: [.init(text: "Offline mode", imageIdentifier: icon, altText: "A cloud"), .init(text: "No ads", imageIdentifier: icon, altText: "A cloud")],
                    headerPosition: "ABOVE_IMAGE"))
            try await messaging.uploadMessage(plain, UploadMessageRequestBody(header: "Try Basic", body: "Same app, lower price."))
            try await messaging.configureRealtimeURL("http://127.0.0.1:\(try #require(endpoint.port))/retention", environment: .sandbox)
            let purchase = try await simulator.purchase(DevicePurchase(accountID: RuntimeFixture.alice, productID: "pro.monthly")).completed()
            // Apple waits 2 s; a loaded test machine can take longer to answer a local endpoint,
            // and what is checked here is what is shown, not how fast.
            return try await simulator.viewSubscriptionPage(
                accountID: RuntimeFixture.alice, originalTransactionID: purchase.transaction.originalTransactionID, timeout: .seconds(30))
        }
    }

    /// A text-based message shows its bullet points and its header above the image.
    /// https://developer.apple.com/documentation/retentionmessaging/uploadmessagerequestbody
    /// https://developer.apple.com/documentation/retentionmessaging/headerposition
    @Test func aMessageShowsItsBulletPointsAndHeaderPosition() async throws {
        let shown = try await Self.page(answering: RealtimeResponseBody(message: .init(messageIdentifier: Self.rich)))
        #expect(shown.source == "realtime" && shown.kind == "message")
        #expect(shown.bulletPoints == ["Offline mode", "No ads"] && shown.headerPosition == "ABOVE_IMAGE" && shown.imageIdentifier == Self.photo)
    }

    /// A switch-plan message may name the commitment plan offered (Retention Messaging API 1.5),
    /// one of Apple's `billingPlanType` values.
    /// https://developer.apple.com/documentation/retentionmessaging/alternateproduct
    /// https://developer.apple.com/documentation/retentionmessaging/billingplantype
    @Test(arguments: [("MONTHLY", true), ("BILLED_UPFRONT", true), ("WEEKLY", false)])
    func aPlanSwitchNamesItsBillingPlan(plan: String, shown: Bool) async throws {
        let page = try await Self.page(
            answering: RealtimeResponseBody(
                alternateProduct: .init(messageIdentifier: Self.plain, productId: "basic.monthly", billingPlanType: BillingPlanType(rawValue: plan))))
        #expect(page.source == (shown ? "realtime" : "none"))
        #expect(page.billingPlanType == (shown ? plan : nil))
        #expect((page.realtimeFailure?.contains("billingPlanType") ?? false) == !shown)
    }

    /// Apple shows neither an image nor bullet points with a plan switch or an offer.
    /// https://developer.apple.com/documentation/retentionmessaging/uploadmessagerequestbody
    @Test func aPlanSwitchWithBulletPointsIsNotShown() async throws {
        let page = try await Self.page(answering: RealtimeResponseBody(alternateProduct: .init(messageIdentifier: Self.rich, productId: "basic.monthly")))
        #expect(page.source == "none")
        #expect(page.realtimeFailure?.contains("bullet points") == true)
    }

    /// `advancedCommerceInfo` is the fourth choice of the answer: a message without an image and
    /// the developer's Base64 signed request; one answer holds one choice only.
    /// https://developer.apple.com/documentation/retentionmessaging/realtimeresponsebody
    /// https://developer.apple.com/documentation/retentionmessaging/advancedcommerceinfo
    @Test func anAdvancedCommerceOfferIsTheFourthChoice() async throws {
        let data = Data(#"{"signatureInfo":{"token":"x.y.z"}}"#.utf8).base64EncodedString()
        let commerce = RealtimeResponseBody.AdvancedCommerceInfo(messageIdentifier: Self.plain, advancedCommerceData: data)
        let shown = try await Self.page(answering: RealtimeResponseBody(advancedCommerceInfo: commerce))
        #expect(shown.source == "realtime" && shown.kind == "advancedCommerceInfo" && shown.messageIdentifier == Self.plain)

        let garbled = try await Self.page(
            answering: RealtimeResponseBody(advancedCommerceInfo: .init(messageIdentifier: Self.plain, advancedCommerceData: "not base64!")))
        #expect(garbled.source == "none" && garbled.realtimeFailure?.contains("Base64") == true)

        let two = try await Self.page(answering: RealtimeResponseBody(message: .init(messageIdentifier: Self.plain), advancedCommerceInfo: commerce))
        #expect(two.source == "none" && two.realtimeFailure?.contains("advancedCommerceInfo") == true)
    }
}
