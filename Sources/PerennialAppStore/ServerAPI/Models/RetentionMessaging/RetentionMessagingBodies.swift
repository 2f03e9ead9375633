/// The bodies a developer sends to the Retention Messaging API and the one it answers Apple's
/// realtime request with; Apple's field names.

/// Upload Message's body: the texts, and an image for a text-based message.
public struct UploadMessageRequestBody: Codable, Hashable, Sendable {
    /// At most 66 characters.
    public var header: String
    /// At most 144 characters.
    public var body: String
    public var image: UploadMessageImage?

    public init(header: String, body: String, image: UploadMessageImage? = nil) {
        self.header = header
        self.body = body
        self.image = image
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

/// The Get Retention Message endpoint's answer: at most one of the three; none leaves the default message.
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

        public init(messageIdentifier: String, productId: String) {
            self.messageIdentifier = messageIdentifier
            self.productId = productId
        }
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

    public init(message: Message? = nil, alternateProduct: AlternateProduct? = nil, promotionalOffer: PromotionalOffer? = nil) {
        self.message = message
        self.alternateProduct = alternateProduct
        self.promotionalOffer = promotionalOffer
    }
}
