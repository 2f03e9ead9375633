import Foundation
import PerennialCore
import PerennialStorage

/// The counters a report sums: of some products, storefronts and offer types (each set empty for
/// all), so a question like "introductory offers in France" is answered from the counters,
/// not from the records.
public struct AnalyticsFilter: Sendable, Hashable {
    /// The name of periods bought without an offer, beside ``PerennialCore/OfferType``'s raw values.
    public static let noOffer = "none"
    /// The offer types a filter may name: Apple's four and ``noOffer``.
    public static let offerTypes = [OfferType.introductory, .promotional, .offerCode, .winBack].map(\.rawValue) + [noOffer]

    public var productIDs: Set<String>
    /// Three-letter storefront codes, upper case.
    public var storefronts: Set<String>
    /// Names of ``offerTypes``.
    public var offerTypes: Set<String>

    public init(productIDs: Set<String> = [], storefronts: Set<String> = [], offerTypes: Set<String> = []) {
        self.productIDs = productIDs
        self.storefronts = storefronts
        self.offerTypes = offerTypes
    }

    /// A filter from the comma-separated lists of the API's and the dashboard's query
    /// (`?product=a,b&storefront=USA,FRA&offerType=introductory,none`); a list absent or empty
    /// keeps all. ``validated(for:)`` checks the names.
    init(lists products: String?, storefronts: String?, offerTypes: String?) {
        func names(_ list: String?) -> Set<String> {
            Set((list ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty })
        }
        self.init(productIDs: names(products), storefronts: names(storefronts), offerTypes: names(offerTypes))
    }

    /// Whether only the counters kept by storefront, product and offer type together hold what
    /// the filter keeps: the product dimension knows neither storefronts nor offer types.
    var needsCombined: Bool { !storefronts.isEmpty || !offerTypes.isEmpty }

    /// The filter with its storefronts upper-cased, after checking each name against `catalog`
    /// and the forms above: a name that matches nothing would answer an empty report, as if the
    /// app had no subscribers there.
    /// - Throws: ``AnalyticsError/invalidFilter(_:)`` naming the first bad value.
    func validated(for catalog: Catalog) throws(AnalyticsError) -> AnalyticsFilter {
        if let unknown = productIDs.sorted().first(where: { catalog.product(id: $0) == nil }) {
            throw .invalidFilter("product \(unknown) is not in the app's catalog")
        }
        var validated = self
        validated.storefronts = []
        for storefront in storefronts.sorted() {
            guard let code = OfferingContext.storefront(storefront) else {
                throw .invalidFilter("storefront must be three letters A–Z, an App Store storefront code like USA, not \(storefront)")
            }
            validated.storefronts.insert(code)
        }
        if let unknown = offerTypes.sorted().first(where: { !Self.offerTypes.contains($0) }) {
            throw .invalidFilter("offerType must be one of \(Self.offerTypes.joined(separator: ", ")), not \(unknown)")
        }
        return validated
    }

    /// Whether a counter of `productID` counts.
    func contains(productID: String) -> Bool {
        productIDs.isEmpty || productIDs.contains(productID)
    }

    /// Whether a counter kept under `segment` counts.
    func contains(_ segment: AnalyticsCombinedSegment) -> Bool {
        contains(productID: segment.productID) && (storefronts.isEmpty || storefronts.contains(segment.storefront))
            && (offerTypes.isEmpty || offerTypes.contains(Self.offerName(segment.offerType)))
    }

    /// A stored offer type by the name a filter and a breakdown give it ("" is ``noOffer``).
    static func offerName(_ offerType: String) -> String {
        offerType.isEmpty ? noOffer : offerType
    }
}
