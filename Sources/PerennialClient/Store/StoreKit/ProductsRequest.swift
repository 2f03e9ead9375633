import Foundation
#if canImport(StoreKit)
import StoreKit
#else
import StoreKitInterface
#endif

/// One `SKProductsRequest` and its delegate, mapping StoreKit 1's products to the SDK's; keeps
/// itself alive until StoreKit answers (the request holds its delegate weakly).
final class ProductsRequest: NSObject, SKProductsRequestDelegate {
    private let request: SKProductsRequest
    private var continuation: CheckedContinuation<Result<[StoreProduct], StoreError>, Never>?
    private var keepAlive: ProductsRequest?

    static func run(_ ids: Set<String>) async throws(StoreError) -> [StoreProduct] {
        let result: Result<[StoreProduct], StoreError> = await withCheckedContinuation { continuation in
            ProductsRequest(ids, continuation).start()
        }
        return try result.get()
    }

    private init(_ ids: Set<String>, _ continuation: CheckedContinuation<Result<[StoreProduct], StoreError>, Never>) {
        self.request = SKProductsRequest(productIdentifiers: ids)
        self.continuation = continuation
    }

    private func start() {
        keepAlive = self
        request.delegate = self
        request.start()
    }

    func productsRequest(_ request: SKProductsRequest, didReceive response: SKProductsResponse) {
        end(.success(response.products.map(Self.product)))
    }

    func request(_ request: SKRequest, didFailWithError error: any Error) {
        end(.failure(.platform(UnderlyingError(error))))
    }

    func requestDidFinish(_ request: SKRequest) {
        end(.success([]))
    }

    /// The first answer wins: `productsRequest(_:didReceive:)` comes before `requestDidFinish`.
    private func end(_ result: Result<[StoreProduct], StoreError>) {
        continuation?.resume(returning: result)
        continuation = nil
        keepAlive = nil
    }

    private static func product(_ product: SKProduct) -> StoreProduct {
        StoreProduct(
            id: product.productIdentifier, displayName: product.localizedTitle,
            displayPrice: price(product.price, product.priceLocale), price: product.price.decimalValue,
            subscriptionPeriod: product.subscriptionPeriod.map(period),
            introductoryOffer: product.introductoryPrice.map { offer($0, type: "introductory") },
            promotionalOffers: product.discounts.map { offer($0, type: "promotional") })
    }

    private static func offer(_ discount: SKProductDiscount, type: String) -> StoreProductOffer {
        let mode =
            switch discount.paymentMode {
            case .freeTrial: "freeTrial"
            case .payUpFront: "payUpFront"
            case .payAsYouGo: "payAsYouGo"
            @unknown default: "payAsYouGo"
            }
        return StoreProductOffer(
            id: discount.identifier, type: type, displayPrice: price(discount.price, discount.priceLocale),
            period: period(discount.subscriptionPeriod), periodCount: discount.numberOfPeriods, paymentMode: mode)
    }

    private static func price(_ price: NSDecimalNumber, _ locale: Locale) -> String {
        let formatter = NumberFormatter()
        formatter.numberStyle = .currency
        formatter.locale = locale
        return formatter.string(from: price) ?? price.stringValue
    }

    private static func period(_ period: SKProductSubscriptionPeriod) -> String {
        let unit: SubscriptionPeriodUnit =
            switch period.unit {
            case .day: .day
            case .week: .week
            case .month: .month
            case .year: .year
            @unknown default: .day
            }
        return unit.iso8601(period.numberOfUnits)
    }
}
