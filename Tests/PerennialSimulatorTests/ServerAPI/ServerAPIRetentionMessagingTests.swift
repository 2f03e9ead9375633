import Foundation
import Hummingbird
import HummingbirdTesting
import PerennialAppStore
import PerennialCore
import PerennialSimulator
import Testing

/// The Retention Messaging API of the simulated App Store Server API, called through Perennial's
/// own client: every endpoint's success and each error Apple documents for it, with Apple's codes.
@Suite struct ServerAPIRetentionMessagingTests {
    static let image = "7d0e35c6-1c33-4f3e-9b70-5b1f6b0e0a01"
    static let message = "2b6c2c57-2f9e-4d4e-8d3c-0b8b3f9b0c02"
    static let plain = "9a1f8a5e-6a55-4a6b-8c1e-3e2d1c0b0a03"

    /// The first bytes of a PNG (signature and IHDR) of the given size and colour type.
    static func png(width: Int, height: Int, colourType: UInt8 = 2) -> Data {
        var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8)
        for value in [width, height] { bytes += [24, 16, 8, 0].map { UInt8((value >> $0) & 0xFF) } }
        bytes += [8, colourType, 0, 0, 0, 0, 0, 0, 0]
        return Data(bytes)
    }

    /// The code of the Apple error `body` throws, nil when it succeeds.
    static func code(_ body: () async throws -> Void) async -> Int? {
        do {
            try await body()
            return nil
        } catch let AppStoreServerAPIError.api(_, code, _) {
            return code.rawValue
        } catch {
            return -1
        }
    }

    static func json(_ value: some Encodable) throws -> ServerAPIRequestBody { ServerAPIRequestBody(json: try JSONEncoder().encode(value)) }

    @Test func imagesAndMessages() async throws {
        let client = await (try ServerAPIHarness()).client()
        try await client.sendWithoutBody(.uploadImage(imageIdentifier: Self.image, png: Self.png(width: 3840, height: 1080)))
        #expect(await Self.code { try await client.sendWithoutBody(.uploadImage(imageIdentifier: Self.image, png: Self.png(width: 3840, height: 1080))) } == 4_090_000)
        #expect(await Self.code { try await client.sendWithoutBody(.uploadImage(imageIdentifier: UUID().uuidString, png: Self.png(width: 3840, height: 1080, colourType: 6))) } == 4_000_161)
        #expect(await Self.code { try await client.sendWithoutBody(.uploadImage(imageIdentifier: UUID().uuidString, png: Self.png(width: 100, height: 100))) } == 4_000_216)
        #expect(await Self.code { try await client.sendWithoutBody(.uploadImage(imageIdentifier: UUID().uuidString, png: Data("GIF89a".utf8))) } == 4_000_161)
        try await client.sendWithoutBody(.uploadImage(imageIdentifier: UUID().uuidString, png: Self.png(width: 192, height: 192)))
        let images: GetImageListResponse = try await client.send(.imageList)
        #expect(images.imageIdentifiers?.compactMap(\.imageSize).sorted() == ["BULLET_POINT", "FULL_SIZE"])
        #expect(images.imageIdentifiers?.allSatisfy { $0.imageState == "APPROVED" } == true)

        let withImage = UploadMessageRequestBody(header: "Before you go", body: "Your streak is 40 days.", image: .init(imageIdentifier: Self.image, altText: "A flame"))
        try await client.sendWithoutBody(.uploadMessage(messageIdentifier: Self.message, body: try Self.json(withImage)))
        #expect(await Self.code { try await client.sendWithoutBody(.uploadMessage(messageIdentifier: Self.message, body: try Self.json(withImage))) } == 4_090_001)
        let refusals: [(UploadMessageRequestBody, Int)] = [
            (UploadMessageRequestBody(header: String(repeating: "h", count: 67), body: "b"), 4_000_162),
            (UploadMessageRequestBody(header: "h", body: String(repeating: "b", count: 145)), 4_000_163),
            (UploadMessageRequestBody(header: "h", body: "b", image: .init(imageIdentifier: UUID().uuidString, altText: "x")), 4_040_014),
            (UploadMessageRequestBody(header: "h", body: "b", image: .init(imageIdentifier: Self.image, altText: String(repeating: "a", count: 151))), 4_000_175),
        ]
        for (body, expected) in refusals {
            #expect(await Self.code { try await client.sendWithoutBody(.uploadMessage(messageIdentifier: UUID().uuidString, body: try Self.json(body))) } == expected)
        }
        let messages: GetMessageListResponse = try await client.send(.messageList)
        #expect(messages.messageIdentifiers == [GetMessageListResponseItem(messageIdentifier: Self.message, messageState: "APPROVED")])

        #expect(await Self.code { try await client.sendWithoutBody(.deleteImage(imageIdentifier: Self.image)) } == 4_030_019, "in use by the message")
        try await client.sendWithoutBody(.deleteMessage(messageIdentifier: Self.message))
        #expect(await Self.code { try await client.sendWithoutBody(.deleteMessage(messageIdentifier: Self.message)) } == 4_040_015)
        try await client.sendWithoutBody(.deleteImage(imageIdentifier: Self.image))
        #expect(await Self.code { try await client.sendWithoutBody(.deleteImage(imageIdentifier: Self.image)) } == 4_040_014)
    }

    @Test func defaultMessages() async throws {
        let client = await (try ServerAPIHarness()).client()
        try await client.sendWithoutBody(.uploadMessage(messageIdentifier: Self.plain, body: try Self.json(UploadMessageRequestBody(header: "Stay", body: "We miss you."))))
        let configure = try Self.json(DefaultConfigurationRequest(messageIdentifier: Self.plain))
        #expect(await Self.code { try await client.sendWithoutBody(.defaultMessage(productID: "pro.monthly", locale: "en-US")) } == 4_040_020)
        #expect(await Self.code { try await client.sendWithoutBody(.configureDefaultMessage(productID: "pro.monthly", locale: "english", body: configure)) } == 4_000_164)
        #expect(await Self.code { try await client.sendWithoutBody(.configureDefaultMessage(productID: "lifetime", locale: "en-US", body: configure)) } == 4_000_023)
        #expect(await Self.code {
            try await client.sendWithoutBody(.configureDefaultMessage(productID: "pro.monthly", locale: "en-US", body: try Self.json(DefaultConfigurationRequest(messageIdentifier: UUID().uuidString))))
        } == 4_040_015)
        try await client.sendWithoutBody(.configureDefaultMessage(productID: "pro.monthly", locale: "en-US", body: configure))
        let configured: GetDefaultMessageResponse = try await client.send(.defaultMessage(productID: "pro.monthly", locale: "en-US"))
        #expect(configured.messageIdentifier == Self.plain)
        try await client.sendWithoutBody(.deleteDefaultMessage(productID: "pro.monthly", locale: "en-US"))
        #expect(await Self.code { try await client.sendWithoutBody(.deleteDefaultMessage(productID: "pro.monthly", locale: "en-US")) } == 4_040_020)
    }

    @Test func realtimeURLAndPerformanceTests() async throws {
        let harness = try ServerAPIHarness()
        let client = await harness.client()
        let pro = try await harness.buy("pro.monthly")
        #expect(await Self.code { try await client.sendWithoutBody(.realtimeURL) } == 4_040_021)
        #expect(await Self.code { try await client.sendWithoutBody(.deleteRealtimeURL) } == 4_040_021)
        #expect(await Self.code { try await client.sendWithoutBody(.initiatePerformanceTest(body: try Self.json(PerformanceTestRequest(originalTransactionId: pro)))) } == 4_040_021)
        for bad in ["http://example.com/retention", "ftp://x", "https://example.com/" + String(repeating: "a", count: 250)] {
            #expect(await Self.code { try await client.sendWithoutBody(.configureRealtimeURL(body: try Self.json(RealtimeUrlRequest(realtimeURL: bad)))) } == 4_000_215)
        }
        // Nothing listens on port 9: every request of the test fails and the test fails.
        let target = "http://127.0.0.1:9/apple/retention/app"
        try await client.sendWithoutBody(.configureRealtimeURL(body: try Self.json(RealtimeUrlRequest(realtimeURL: target))))
        let configured: GetRealtimeURLResponse = try await client.send(.realtimeURL)
        #expect(configured.realtimeURL == target)

        #expect(await Self.code { try await client.sendWithoutBody(.initiatePerformanceTest(body: try Self.json(PerformanceTestRequest(originalTransactionId: "999")))) } == 4_040_005)
        #expect(await Self.code { try await client.sendWithoutBody(.initiatePerformanceTest(body: ServerAPIRequestBody(json: Data("[]".utf8)))) } == 4_000_211)
        let started: PerformanceTestResponse = try await client.send(.initiatePerformanceTest(body: try Self.json(PerformanceTestRequest(originalTransactionId: pro))))
        let id = try #require(started.requestId)
        #expect(started.config?.totalRequests == 20 && started.config?.responseTimeThreshold == 700)
        var result: PerformanceTestResultResponse = try await client.send(.performanceTestResult(requestID: id))
        for _ in 0..<100 where result.result == "PENDING" {
            try await Task.sleep(for: .milliseconds(50))
            result = try await client.send(.performanceTestResult(requestID: id))
        }
        #expect(result.result == "FAIL" && result.successRate == 0 && result.target == target)
        #expect(result.failures?.values.reduce(0, +) == 20)
        #expect(await Self.code { try await client.sendWithoutBody(.performanceTestResult(requestID: UUID().uuidString)) } == 4_040_018)
        #expect(await Self.code { try await client.sendWithoutBody(.performanceTestResult(requestID: "not-a-uuid")) } == 4_000_212)

        try await client.sendWithoutBody(.deleteRealtimeURL)
        #expect(await Self.code { try await client.sendWithoutBody(.realtimeURL) } == 4_040_021)
        let wrongMethod = try await harness.call("POST", "/inApps/v1/messaging/realtime/url")
        #expect(wrongMethod.status == 405 && wrongMethod.headers["Allow"] == "PUT, GET, DELETE")
    }

    /// An endpoint slower than Apple's 700 ms fails the test for its slowness, told apart from an
    /// endpoint that is wrong or down, also when the App Store stops waiting before it answers.
    @Test func aSlowEndpointFailsForItsSlownessAlone() async throws {
        let router = Router()
        router.post("retention") { _, _ -> String in
            try await Task.sleep(for: .seconds(1))
            return "{}"
        }
        try await Application(router: router).test(.live) { endpoint in
            let harness = try ServerAPIHarness()
            let client = await harness.client()
            let pro = try await harness.buy("pro.monthly")
            let target = "http://127.0.0.1:\(try #require(endpoint.port))/retention"
            try await client.sendWithoutBody(.configureRealtimeURL(body: try Self.json(RealtimeUrlRequest(realtimeURL: target))))
            let started: PerformanceTestResponse = try await client.send(.initiatePerformanceTest(body: try Self.json(PerformanceTestRequest(originalTransactionId: pro))))
            let id = try #require(started.requestId)
            var result: PerformanceTestResultResponse = try await client.send(.performanceTestResult(requestID: id))
            for _ in 0..<200 where result.result == "PENDING" {
                try await Task.sleep(for: .milliseconds(50))
                result = try await client.send(.performanceTestResult(requestID: id))
            }
            #expect(result.result == "FAIL" && result.successRate == 0, "\(result)")
            #expect(result.failures == ["the endpoint answered after more than 0.7 seconds": 20], "\(result)")
        }
    }

    @Test func aProductionURLNeedsAPassingTest() async throws {
        let harness = try ServerAPIHarness(environment: .production)
        let client = await harness.client()
        #expect(await Self.code { try await client.sendWithoutBody(.configureRealtimeURL(body: try Self.json(RealtimeUrlRequest(realtimeURL: "https://example.com/r")))) } == 4_030_026)
    }
}
