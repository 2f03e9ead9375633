/// The answer of the Retention Messaging image list. Retention messaging is outside Perennial's
/// subscription engine; the model exists so that every Server API answer decodes.
public struct GetImageListResponse: Codable, Hashable, Sendable {
    public var imageIdentifiers: [GetImageListResponseItem]?

    /// Creates a response.
    public init(imageIdentifiers: [GetImageListResponseItem]? = nil) {
        self.imageIdentifiers = imageIdentifiers
    }
}
