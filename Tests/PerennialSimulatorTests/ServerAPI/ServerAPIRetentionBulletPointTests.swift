import Foundation
import PerennialAppStore
import Testing

/// Retention Messaging API 1.4's richer messages on the simulated App Store Server API: bullet
/// points with their own image size, the header above the image, and the image sizes they need,
/// refused with Apple's codes.
@Suite struct ServerAPIRetentionBulletPointTests {
    typealias Fixture = ServerAPIRetentionBulletPointTests
    typealias Shared = ServerAPIRetentionMessagingTests
    static let photo = "0c6f3a4e-8a3b-4f7e-9d52-3c1b2a0f0b01"
    static let icon = "0c6f3a4e-8a3b-4f7e-9d52-3c1b2a0f0b02"

    static func bullet(_ text: String = "Offline mode", icon: String = icon, altText: String = "A cloud") -> BulletPoint {
        BulletPoint(text: text, imageIdentifier: icon, altText: altText)
    }

    /// A client with one full-size image and one bullet-point icon uploaded.
    static func client() async throws -> AppStoreServerAPIClient {
        let client = await (try ServerAPIHarness()).client()
        try await client.sendWithoutBody(.uploadImage(imageIdentifier: photo, png: Shared.png(width: 3840, height: 160)))
        try await client.sendWithoutBody(.uploadImage(imageIdentifier: icon, png: Shared.png(width: 192, height: 192)))
        return client
    }

    /// Full size is 3840 pixels wide and 160 to 2160 high; Get Image List reports each image's
    /// `imageSize`.
    /// https://developer.apple.com/documentation/retentionmessaging/upload-image
    /// https://developer.apple.com/documentation/retentionmessaging/imagesize
    @Test(arguments: [
        (3840, 160, "FULL_SIZE"), (3840, 2160, "FULL_SIZE"), (3840, 159, nil), (3840, 2161, nil), (3839, 1080, nil), (192, 192, "BULLET_POINT"),
        (192, 193, nil),
    ] as [(Int, Int, String?)])
    func imageSizes(width: Int, height: Int, size: String?) async throws {
        let client = await (try ServerAPIHarness()).client()
        let id = UUID().uuidString
        let code = await Shared.code { try await client.sendWithoutBody(.uploadImage(imageIdentifier: id, png: Shared.png(width: width, height: height))) }
        #expect(code == (size == nil ? 4_000_216 : nil))
        let images: GetImageListResponse = try await client.send(.imageList)
        #expect(images.imageIdentifiers?.first?.imageSize == size)
    }

    /// A message may carry bullet points, each with an uploaded `BULLET_POINT` image, and put its
    /// header above its image.
    /// https://developer.apple.com/documentation/retentionmessaging/uploadmessagerequestbody
    /// https://developer.apple.com/documentation/retentionmessaging/bulletpoint
    @Test func aMessageWithBulletPointsAndTheHeaderAboveItsImage() async throws {
        let client = try await Self.client()
        let body = UploadMessageRequestBody(
            header: "Before you go", body: "You keep all of this.", image: .init(imageIdentifier: Self.photo, altText: "A mountain"),
            bulletPoints: Array(repeating: Self.bullet(String(repeating: "t", count: 66)), count: 5), headerPosition: "ABOVE_IMAGE")
        let id = UUID().uuidString
        try await client.sendWithoutBody(.uploadMessage(messageIdentifier: id, body: try Shared.json(body)))
        let messages: GetMessageListResponse = try await client.send(.messageList)
        #expect(messages.messageIdentifiers?.map(\.messageIdentifier) == [id])
        #expect(await Shared.code { try await client.sendWithoutBody(.deleteImage(imageIdentifier: Self.icon)) } == 4_030_019, "the bullet's icon is in use")
        let encoded = try #require(String(data: try JSONEncoder().encode(body), encoding: .utf8))
        #expect(encoded.contains("\"bulletPoints\"") && encoded.contains("\"headerPosition\":\"ABOVE_IMAGE\""))
    }

    /// Each refusal Apple documents for the 1.4 fields, with its code: too many bullet points
    /// (BadRequestTooManyBulletPointsError, 4000218), a bullet's text over 66 characters
    /// (BadRequestBulletPointTextTooLongError, 4000219), `ABOVE_IMAGE` without an image
    /// (BadRequestAboveImageRequiresAnImageError, 4000224), an image of the wrong size for its
    /// place (BadRequestImageSizeError, 4000216), an unknown bullet image (ImageNotFoundError) and a
    /// bullet's alternative text over 150 characters (AltTextTooLongError).
    /// https://developer.apple.com/documentation/retentionmessaging/error-codes
    /// https://developer.apple.com/documentation/retentionmessaging/badrequesttoomanybulletpointserror
    /// https://developer.apple.com/documentation/retentionmessaging/badrequestbulletpointtexttoolongerror
    /// https://developer.apple.com/documentation/retentionmessaging/badrequestaboveimagerequiresanimageerror
    /// https://developer.apple.com/documentation/retentionmessaging/badrequestimagesizeerror
    @Test(arguments: [
        (UploadMessageRequestBody(header: "h", body: "b", bulletPoints: Array(repeating: Fixture.bullet(), count: 6)), 4_000_218),
        (UploadMessageRequestBody(header: "h", body: "b", bulletPoints: [Fixture.bullet(String(repeating: "t", count: 67))]), 4_000_219),
        (UploadMessageRequestBody(header: "h", body: "b", headerPosition: "ABOVE_IMAGE"), 4_000_224),
        (UploadMessageRequestBody(header: "h", body: "b", bulletPoints: [Fixture.bullet(icon: Fixture.photo)]), 4_000_216),
        (UploadMessageRequestBody(header: "h", body: "b", image: .init(imageIdentifier: Fixture.icon, altText: "x")), 4_000_216),
        (UploadMessageRequestBody(header: "h", body: "b", bulletPoints: [Fixture.bullet(icon: UUID().uuidString)]), 4_040_014),
        (UploadMessageRequestBody(header: "h", body: "b", bulletPoints: [Fixture.bullet(altText: String(repeating: "a", count: 151))]), 4_000_175),
    ])
    func refusals(body: UploadMessageRequestBody, code: Int) async throws {
        let client = try await Self.client()
        #expect(await Shared.code { try await client.sendWithoutBody(.uploadMessage(messageIdentifier: UUID().uuidString, body: try Shared.json(body))) } == code)
        let messages: GetMessageListResponse = try await client.send(.messageList)
        #expect(messages.messageIdentifiers?.isEmpty ?? true, "a refused message is not kept")
    }
}
