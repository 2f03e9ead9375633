public import Foundation
public import PerennialAppStore
import PerennialCore

/// The developer's Retention Messaging setup as the simulated App Store keeps it: uploaded images
/// and messages, default messages per product and locale, the Get Retention Message endpoint's URL
/// and the performance tests run against it. Each change is checked as Apple checks it and refused
/// with Apple's error code; what Apple's review would decide, the simulator decides at once: every
/// image and message is `APPROVED` when uploaded.
public actor RetentionMessaging {
    /// An uploaded image: `FULL_SIZE` (3840 wide, 160 to 2160 high) or `BULLET_POINT` (192 × 192).
    public struct Image: Hashable, Sendable {
        public let identifier: String
        public let size: String
        public let state: String
    }

    /// An uploaded message.
    public struct Message: Hashable, Sendable {
        public let identifier: String
        public let content: UploadMessageRequestBody
        public let state: String
    }

    /// What Apple's limits allow per app.
    static let maximumImages = 2_000
    static let maximumMessages = 2_000
    /// What Apple's limit allows per message.
    static let maximumBulletPoints = 5

    static let fullSize = "FULL_SIZE"
    static let bulletPointSize = "BULLET_POINT"
    static let aboveImage = "ABOVE_IMAGE"

    private(set) var images: [String: Image] = [:]
    private(set) var messages: [String: Message] = [:]
    private var defaults: [String: String] = [:]
    /// The Get Retention Message endpoint's URL in the simulator's environment.
    public private(set) var realtimeURL: URL?
    private var passedPerformanceTest = false
    private var performanceTests: [String: PerformanceTestResultResponse] = [:]

    public init() {}

    func message(_ identifier: String) -> Message? { messages[identifier] }

    /// The default message shown for `productID` in `locale` when the endpoint gives none.
    func defaultMessage(productID: String, locale: String) -> Message? {
        defaults[Self.key(productID, locale)].flatMap { messages[$0] }
    }

    // MARK: Images

    func uploadImage(_ identifier: String, png: Data) throws(ServerAPIFailure) {
        try Self.requireUUID(identifier, "imageIdentifier")
        guard images[identifier] == nil else { throw Self.conflict(.imageAlreadyExists, "The image identifier already exists.") }
        guard images.count < Self.maximumImages else { throw .forbidden(.maximumNumberOfImagesReached, "The maximum number of images was reached.") }
        images[identifier] = Image(identifier: identifier, size: try Self.size(ofPNG: png), state: "APPROVED")
    }

    func deleteImage(_ identifier: String) throws(ServerAPIFailure) {
        guard images[identifier] != nil else { throw .notFound(.imageNotFound, "The image identifier wasn't found.") }
        guard !messages.values.contains(where: { $0.content.imageIdentifiers.contains(identifier) }) else {
            throw .forbidden(.imageInUse, "The image is in use by a message.")
        }
        images[identifier] = nil
    }

    var imageList: GetImageListResponse {
        GetImageListResponse(
            imageIdentifiers: images.values.sorted { $0.identifier < $1.identifier }.map {
                GetImageListResponseItem(imageIdentifier: $0.identifier, imageState: $0.state, imageSize: $0.size)
            })
    }

    // MARK: Messages

    func uploadMessage(_ identifier: String, _ content: UploadMessageRequestBody) throws(ServerAPIFailure) {
        try Self.requireUUID(identifier, "messageIdentifier")
        guard messages[identifier] == nil else { throw Self.conflict(.messageAlreadyExists, "The message identifier already exists.") }
        guard messages.count < Self.maximumMessages else {
            throw .forbidden(.maximumNumberOfMessagesReached, "The maximum number of messages was reached.")
        }
        guard content.header.count <= 66 else { throw .badRequest(.headerTooLong, "The header text is too long.") }
        guard content.body.count <= 144 else { throw .badRequest(.bodyTooLong, "The body text is too long.") }
        if let image = content.image {
            try requireImage(image.imageIdentifier, altText: image.altText, size: Self.fullSize)
        }
        guard content.headerPosition != Self.aboveImage || content.image != nil else {
            throw .badRequest(.badRequestAboveImageRequiresAnImage, "The header can be above the image only when there is an image.")
        }
        let bullets = content.bulletPoints ?? []
        guard bullets.count <= Self.maximumBulletPoints else { throw .badRequest(.badRequestTooManyBulletPoints, "There are too many bullet points.") }
        for bullet in bullets {
            guard bullet.text.count <= 66 else { throw .badRequest(.badRequestBulletPointTextTooLong, "The bullet point text is too long.") }
            try requireImage(bullet.imageIdentifier, altText: bullet.altText, size: Self.bulletPointSize)
        }
        messages[identifier] = Message(identifier: identifier, content: content, state: "APPROVED")
    }

    /// A message's image or bullet-point icon: uploaded, in the size its place needs, described in
    /// at most 150 characters.
    private func requireImage(_ identifier: String, altText: String, size: String) throws(ServerAPIFailure) {
        guard altText.count <= 150 else { throw .badRequest(.altTextTooLong, "The alternative text is too long.") }
        guard let image = images[identifier] else { throw .notFound(.imageNotFound, "The image identifier wasn't found.") }
        guard image.size == size else { throw .badRequest(.badRequestImageSize, "The image \(identifier) is \(image.size), not \(size).") }
    }

    func deleteMessage(_ identifier: String) throws(ServerAPIFailure) {
        guard messages.removeValue(forKey: identifier) != nil else { throw .notFound(.messageNotFound, "The message identifier wasn't found.") }
        defaults = defaults.filter { $0.value != identifier }
    }

    var messageList: GetMessageListResponse {
        GetMessageListResponse(
            messageIdentifiers: messages.values.sorted { $0.identifier < $1.identifier }.map {
                GetMessageListResponseItem(messageIdentifier: $0.identifier, messageState: $0.state)
            })
    }

    // MARK: Default messages

    func configureDefault(productID: String, locale: String, messageIdentifier: String) throws(ServerAPIFailure) {
        try Self.requireLocale(locale)
        guard let message = messages[messageIdentifier] else { throw .notFound(.messageNotFound, "The message identifier wasn't found.") }
        guard message.state == "APPROVED" else { throw .forbidden(.messageNotApproved, "The message isn't approved.") }
        defaults[Self.key(productID, locale)] = messageIdentifier
    }

    func deleteDefault(productID: String, locale: String) throws(ServerAPIFailure) {
        try Self.requireLocale(locale)
        guard defaults.removeValue(forKey: Self.key(productID, locale)) != nil else {
            throw .notFound(.defaultMessageNotFound, "The default message isn't configured.")
        }
    }

    func defaultMessageIdentifier(productID: String, locale: String) throws(ServerAPIFailure) -> String {
        try Self.requireLocale(locale)
        guard let identifier = defaults[Self.key(productID, locale)] else {
            throw .notFound(.defaultMessageNotFound, "The default message isn't configured.")
        }
        return identifier
    }

    // MARK: Realtime URL and performance tests

    /// Apple takes `https://` URLs only; the simulator also takes `http://` to loopback, where a
    /// server under test listens without a certificate.
    func configureRealtimeURL(_ text: String, environment: AppStoreEnvironment) throws(ServerAPIFailure) {
        guard text.count <= 256, let url = URL(string: text), let host = url.host,
            url.scheme == "https" || (url.scheme == "http" && ["127.0.0.1", "localhost", "::1"].contains(host))
        else {
            throw .badRequest(.badRequestRealtimeUrl, "The realtime URL is invalid.")
        }
        guard environment != .production || passedPerformanceTest else {
            throw .forbidden(.forbiddenNoPassingTest, "A passing performance test is required before configuring the production URL.")
        }
        realtimeURL = url
    }

    func deleteRealtimeURL() throws(ServerAPIFailure) {
        guard realtimeURL != nil else { throw Self.realtimeURLNotFound }
        realtimeURL = nil
    }

    /// Registers a test as pending; nil when one is running already.
    func startPerformanceTest(config: PerformanceTestConfig, target: URL) throws(ServerAPIFailure) -> String {
        guard !performanceTests.values.contains(where: { $0.result == "PENDING" }) else {
            throw .badRequest(.existingPerformanceTestRun, "A performance test is already running.")
        }
        let id = UUID().uuidString.lowercased()
        performanceTests[id] = PerformanceTestResultResponse(
            config: config, target: target.absoluteString, result: "PENDING", numPending: config.totalRequests)
        return id
    }

    func finishPerformanceTest(_ id: String, _ result: PerformanceTestResultResponse) {
        performanceTests[id] = result
        if result.result == "PASS" { passedPerformanceTest = true }
    }

    func performanceTest(_ id: String) throws(ServerAPIFailure) -> PerformanceTestResultResponse {
        guard UUID(uuidString: id) != nil else { throw .badRequest(.invalidRequestId, "The request id is invalid.") }
        guard let result = performanceTests[id] else { throw .notFound(.performanceTestRunNotFound, "The performance test wasn't found.") }
        return result
    }

    static let realtimeURLNotFound = ServerAPIFailure.notFound(.realtimeUrlNotFound, "The realtime URL isn't configured.")

    // MARK: Checks

    private static func key(_ productID: String, _ locale: String) -> String { productID + "\u{1F}" + locale }

    private static func conflict(_ code: APIErrorCode, _ message: String) -> ServerAPIFailure {
        ServerAPIFailure(status: 409, code: code, message: message)
    }

    private static func requireUUID(_ identifier: String, _ field: String) throws(ServerAPIFailure) {
        guard UUID(uuidString: identifier) != nil else { throw .general("The \(field) must be a UUID.") }
    }

    /// `en-US`: a language and a region, as Apple's locales are written.
    private static func requireLocale(_ locale: String) throws(ServerAPIFailure) {
        let parts = locale.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, (2...3).contains(parts[0].count), parts[0].allSatisfy(\.isLowercase),
            parts[1].count == 2, parts[1].allSatisfy(\.isUppercase)
        else {
            throw .badRequest(.invalidLocale, "The locale is invalid.")
        }
    }

    /// The size class of a PNG without transparency, read from its IHDR chunk.
    static func size(ofPNG png: Data) throws(ServerAPIFailure) -> String {
        let bytes = [UInt8](png.prefix(26))
        guard bytes.count == 26, bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]),
            bytes[12...15].elementsEqual("IHDR".utf8)
        else {
            throw .badRequest(.invalidImage, "The image is not a PNG.")
        }
        let width = bytes[16...19].reduce(0) { $0 << 8 | Int($1) }
        let height = bytes[20...23].reduce(0) { $0 << 8 | Int($1) }
        // Colour types 4 and 6 carry an alpha channel.
        guard bytes[25] != 4, bytes[25] != 6 else { throw .badRequest(.invalidImage, "The image has transparency.") }
        if width == 3840, (160...2160).contains(height) { return fullSize }
        if width == 192, height == 192 { return bulletPointSize }
        throw .badRequest(.badRequestImageSize, "The image size is invalid.")
    }
}
