/// https://developer.apple.com/documentation/storekit/purchaseintent
/// Purchases the customer started outside the app: a promoted in-app purchase on the App Store.
@available(iOS 16.4, macCatalyst 16.4, macOS 14.4, *)
@available(tvOS, unavailable)
@available(watchOS, unavailable)
@available(visionOS, unavailable)
public struct PurchaseIntent: Sendable {
    /// https://developer.apple.com/documentation/storekit/purchaseintent/product
    public let product: Product

    /// Linux-only test scaffolding: an intent of the scripted App Store.
    init(product: Product) {
        self.product = product
    }

    /// https://developer.apple.com/documentation/storekit/purchaseintent/intents
    public static var intents: PurchaseIntent.PurchaseIntents {
        PurchaseIntents(base: ScriptedAppStore.current.purchaseIntentsStream())
    }

    /// https://developer.apple.com/documentation/storekit/purchaseintent/purchaseintents
    public struct PurchaseIntents: AsyncSequence, Sendable {
        public typealias Element = PurchaseIntent
        let base: AsyncStream<PurchaseIntent>

        public func makeAsyncIterator() -> AsyncIterator {
            AsyncIterator(base: base.makeAsyncIterator())
        }

        public struct AsyncIterator: AsyncIteratorProtocol {
            var base: AsyncStream<PurchaseIntent>.Iterator

            public mutating func next() async -> PurchaseIntent? {
                await base.next()
            }
        }
    }
}
