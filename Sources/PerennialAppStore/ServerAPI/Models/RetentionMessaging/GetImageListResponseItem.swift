/// One uploaded retention image and its review state.
public struct GetImageListResponseItem: Codable, Hashable, Sendable {
    public var imageIdentifier: String?
    /// Apple's review state (`APPROVED`, …), raw.
    public var imageState: String?
    /// Apple's size class (`FULL_SIZE`, …), raw.
    public var imageSize: String?

    /// Creates an item.
    public init(imageIdentifier: String? = nil, imageState: String? = nil, imageSize: String? = nil) {
        self.imageIdentifier = imageIdentifier
        self.imageState = imageState
        self.imageSize = imageSize
    }
}
