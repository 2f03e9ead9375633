/// The segment of a counter row kept under ``AnalyticsDimension/combined``: a storefront, a
/// product id and an offer type in one string, "USA|com.app.monthly|introductory" (the storefront
/// empty when the evidence does not say it, the offer type empty for a period without an offer).
///
/// One string, so the counters table keeps its schema and a filtered report reads one
/// dimension; storefront first and offer type last, each up to the nearest "|", since neither
/// ever holds one while a product id might.
public struct AnalyticsCombinedSegment: Sendable, Hashable {
    public var storefront: String
    public var productID: String
    /// ``PerennialCore/OfferType``'s raw value, or empty.
    public var offerType: String

    public init(storefront: String, productID: String, offerType: String) {
        self.storefront = storefront
        self.productID = productID
        self.offerType = offerType
    }

    /// The parts of a stored segment; nil for a row written before the dimension held them
    /// (definitions 2 kept the storefront alone there, until the upgrade's rebuild replaces it).
    public init?(_ segment: String) {
        guard let first = segment.firstIndex(of: "|"), let last = segment.lastIndex(of: "|"), first < last else { return nil }
        storefront = String(segment[..<first])
        productID = String(segment[segment.index(after: first)..<last])
        offerType = String(segment[segment.index(after: last)...])
    }

    public var segment: String { "\(storefront)|\(productID)|\(offerType)" }
}
