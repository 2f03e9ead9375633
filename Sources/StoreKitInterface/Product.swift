public import Foundation

/// https://developer.apple.com/documentation/storekit/product
@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
public struct Product: Equatable, Hashable, Identifiable, Sendable {
    /// https://developer.apple.com/documentation/storekit/product/id
    public let id: String
    /// https://developer.apple.com/documentation/storekit/product/type
    public let type: Product.ProductType
    /// https://developer.apple.com/documentation/storekit/product/displayname
    public let displayName: String
    /// https://developer.apple.com/documentation/storekit/product/description
    public let description: String
    /// https://developer.apple.com/documentation/storekit/product/price
    public let price: Decimal
    /// https://developer.apple.com/documentation/storekit/product/displayprice
    public let displayPrice: String
    /// https://developer.apple.com/documentation/storekit/product/isfamilyshareable
    public let isFamilyShareable: Bool
    /// https://developer.apple.com/documentation/storekit/product/subscription
    public let subscription: Product.SubscriptionInfo?

    /// Linux-only test scaffolding: a product the scripted App Store sells.
    public init(
        scriptedID id: String, type: Product.ProductType, displayName: String, price: Decimal, displayPrice: String,
        subscription: Product.SubscriptionInfo? = nil
    ) {
        self.id = id
        self.type = type
        self.displayName = displayName
        self.description = displayName
        self.price = price
        self.displayPrice = displayPrice
        self.isFamilyShareable = false
        self.subscription = subscription
    }

    /// https://developer.apple.com/documentation/storekit/product/products(for:)
    public static func products<Identifiers>(for identifiers: Identifiers) async throws -> [Product]
    where Identifiers: Collection, Identifiers.Element == String {
        try ScriptedAppStore.current.products(for: Array(identifiers))
    }

    /// https://developer.apple.com/documentation/storekit/product/purchase(options:)
    /// Main-actor isolated, and unavailable on visionOS (the message is the SDK's own).
    @available(
        visionOS, unavailable,
        message: "Use @Environment(\\.purchase) to get a PurchaseAction value to call. If your app uses UIKit, use purchase(confirmIn:options:)."
    )
    @MainActor
    public func purchase(options: Set<Product.PurchaseOption> = []) async throws -> Product.PurchaseResult {
        try await ScriptedAppStore.current.purchase(self, options: options)
    }

    /// https://developer.apple.com/documentation/storekit/product/producttype
    public struct ProductType: Equatable, Hashable, RawRepresentable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        /// https://developer.apple.com/documentation/storekit/product/producttype/consumable
        public static let consumable = ProductType(rawValue: "Consumable")
        /// https://developer.apple.com/documentation/storekit/product/producttype/nonconsumable
        public static let nonConsumable = ProductType(rawValue: "Non-Consumable")
        /// https://developer.apple.com/documentation/storekit/product/producttype/nonrenewable
        public static let nonRenewable = ProductType(rawValue: "Non-Renewing Subscription")
        /// https://developer.apple.com/documentation/storekit/product/producttype/autorenewable
        public static let autoRenewable = ProductType(rawValue: "Auto-Renewable Subscription")
    }

    /// https://developer.apple.com/documentation/storekit/product/purchaseresult
    public enum PurchaseResult: Equatable, Sendable {
        /// https://developer.apple.com/documentation/storekit/product/purchaseresult/success(_:)
        case success(VerificationResult<Transaction>)
        /// https://developer.apple.com/documentation/storekit/product/purchaseresult/usercancelled
        case userCancelled
        /// https://developer.apple.com/documentation/storekit/product/purchaseresult/pending
        case pending

        public static func == (lhs: PurchaseResult, rhs: PurchaseResult) -> Bool {
            switch (lhs, rhs) {
            case (.success(let left), .success(let right)): left.unsafePayloadValue == right.unsafePayloadValue
            case (.userCancelled, .userCancelled), (.pending, .pending): true
            default: false
            }
        }
    }

    /// https://developer.apple.com/documentation/storekit/product/purchaseerror
    public enum PurchaseError: Error, Equatable, Hashable, Sendable {
        case invalidQuantity
        case productUnavailable
        case purchaseNotAllowed
        case ineligibleForOffer
        case invalidOfferIdentifier
        case invalidOfferPrice
        case invalidOfferSignature
        case missingOfferParameters
    }
}
