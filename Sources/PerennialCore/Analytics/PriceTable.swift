/// The catalog's prices, for evidence that carries none (app receipts, verifyReceipt): the price
/// of a product in a storefront, or its price in every storefront not listed.
public struct PriceTable: Hashable, Sendable {
    private var prices: [String: [String: Money]]

    public init() { prices = [:] }

    /// Sets the price of `productID` in `storefront`, or in every other storefront when nil.
    public mutating func set(_ price: Money, productID: String, storefront: String?) {
        prices[productID, default: [:]][storefront ?? ""] = price
    }

    /// The price of `productID` in `storefront`; nil when the table does not know it.
    public func price(productID: String, storefront: String?) -> Money? {
        guard let byStorefront = prices[productID] else { return nil }
        return storefront.flatMap { byStorefront[$0] } ?? byStorefront[""]
    }
}
