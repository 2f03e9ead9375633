import Foundation

/// The bodies a developer sends to the Retention Messaging API and the one it answers Apple's
/// realtime request with; Apple's field names.

/// Upload Message's body: the texts, and for a text-based message an image and bullet points
/// (Retention Messaging API 1.4).
public struct UploadMessageRequestBody: Codable, Hashable, Sendable {
    /// At most 66 characters.
    public var header: String
    /// At most 144 characters.
    public var body: String
    public var image: UploadMessageImage?
    /// At most five, each with a `BULLET_POINT` image.
    public var bulletPoints: [BulletPoint]?
    /// `ABOVE_BODY` (Apple's default) or `ABOVE_IMAGE`, which needs an image; kept raw, as Apple
    /// may add positions.
    public var headerPosition: String?

    public init(
        header: String, body: String, image: UploadMessageImage? = nil, bulletPoints: [BulletPoint]? = nil, headerPosition: String? = nil
    ) {
        self.header = header
        self.body = body
        self.image = image
        self.bulletPoints = bulletPoints
        self.headerPosition = headerPosition
    }
}

/// One item of a message's bulleted list: its text (at most 66 characters) after an uploaded
/// `BULLET_POINT` image and that image's alternative text (at most 150 characters).
public struct BulletPoint: Codable, Hashable, Sendable {
    public var text: String
    public var imageIdentifier: String
    public var altText: String

    public init(text: String, imageIdentifier: String, altText: String) {
        self.text = text
        self.imageIdentifier = imageIdentifier
        self.altText = altText
    }
}

/// An uploaded image and its alternative text (at most 150 characters).
public struct UploadMessageImage: Codable, Hashable, Sendable {
    public var imageIdentifier: String
    public var altText: String

    public init(imageIdentifier: String, altText: String) {
        self.imageIdentifier = imageIdentifier
        self.altText = altText
    }
}

/// Configure Default Message's body.
public struct DefaultConfigurationRequest: Codable, Hashable, Sendable {
    public var messageIdentifier: String

    public init(messageIdentifier: String) { self.messageIdentifier = messageIdentifier }
}

/// Configure Realtime URL's body.
public struct RealtimeUrlRequest: Codable, Hashable, Sendable {
    /// `https://…`, at most 256 characters.
    public var realtimeURL: String

    public init(realtimeURL: String) { self.realtimeURL = realtimeURL }
}

/// Initiate Performance Test's body: a sandbox subscription the test's requests speak about.
public struct PerformanceTestRequest: Codable, Hashable, Sendable {
    public var originalTransactionId: String

    public init(originalTransactionId: String) { self.originalTransactionId = originalTransactionId }
}

/// What Apple POSTs to the Get Retention Message endpoint: a JWS of ``DecodedRealtimeRequestBody``.
public struct RealtimeRequestBody: Codable, Hashable, Sendable {
    public var signedPayload: String

    public init(signedPayload: String) { self.signedPayload = signedPayload }
}

/// The Get Retention Message endpoint's answer: at most one of the four; none leaves the default message.
public struct RealtimeResponseBody: Codable, Hashable, Sendable {
    /// A text-based message, with or without an image.
    public struct Message: Codable, Hashable, Sendable {
        public var messageIdentifier: String

        public init(messageIdentifier: String) { self.messageIdentifier = messageIdentifier }
    }

    /// A message (without an image) with another product of the group to switch to.
    public struct AlternateProduct: Codable, Hashable, Sendable {
        public var messageIdentifier: String
        public var productId: String
        /// For a product sold as a monthly plan with a 12-month commitment (Retention Messaging
        /// API 1.5): the plan the customer is offered.
        public var billingPlanType: BillingPlanType?

        public init(messageIdentifier: String, productId: String, billingPlanType: BillingPlanType? = nil) {
            self.messageIdentifier = messageIdentifier
            self.productId = productId
            self.billingPlanType = billingPlanType
        }
    }

    /// An offer or plan switch of an Advanced Commerce API subscription: the message and the
    /// developer's signed request describing it (Base64 JSON holding a JWS), which only the
    /// Advanced Commerce API can read.
    public struct AdvancedCommerceInfo: Codable, Hashable, Sendable {
        public var messageIdentifier: String
        public var advancedCommerceData: String

        public init(messageIdentifier: String, advancedCommerceData: String) {
            self.messageIdentifier = messageIdentifier
            self.advancedCommerceData = advancedCommerceData
        }

        /// Whether `advancedCommerceData` is Base64 of something, as Apple takes it: anything else
        /// cannot be the signed request, and the App Store would show the default message.
        public var hasEncodedData: Bool { Data(base64Encoded: advancedCommerceData).map { !$0.isEmpty } ?? false }
    }

    /// A message (without an image) with a promotional offer, signed in the JWS form bound to the
    /// subscription's original transaction id.
    public struct PromotionalOffer: Codable, Hashable, Sendable {
        public var messageIdentifier: String
        public var promotionalOfferSignatureV2: String

        public init(messageIdentifier: String, promotionalOfferSignatureV2: String) {
            self.messageIdentifier = messageIdentifier
            self.promotionalOfferSignatureV2 = promotionalOfferSignatureV2
        }
    }

    public var message: Message?
    public var alternateProduct: AlternateProduct?
    public var promotionalOffer: PromotionalOffer?
    public var advancedCommerceInfo: AdvancedCommerceInfo?

    public init(
        message: Message? = nil, alternateProduct: AlternateProduct? = nil, promotionalOffer: PromotionalOffer? = nil,
        advancedCommerceInfo: AdvancedCommerceInfo? = nil
    ) {
        self.message = message
        self.alternateProduct = alternateProduct
        self.promotionalOffer = promotionalOffer
        self.advancedCommerceInfo = advancedCommerceInfo
    }
}
