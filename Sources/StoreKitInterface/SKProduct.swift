public import Foundation

/// https://developer.apple.com/documentation/storekit/skproduct
@available(iOS, introduced: 3.0, deprecated: 18.0)
@available(macOS, introduced: 10.7, deprecated: 15.0)
open class SKProduct: NSObject {
    /// https://developer.apple.com/documentation/storekit/skproduct/productidentifier
    open internal(set) var productIdentifier: String
    /// https://developer.apple.com/documentation/storekit/skproduct/localizedtitle
    open internal(set) var localizedTitle: String
    /// https://developer.apple.com/documentation/storekit/skproduct/localizeddescription
    open internal(set) var localizedDescription: String
    /// https://developer.apple.com/documentation/storekit/skproduct/price
    open internal(set) var price: NSDecimalNumber
    /// https://developer.apple.com/documentation/storekit/skproduct/pricelocale
    open internal(set) var priceLocale: Locale
    /// https://developer.apple.com/documentation/storekit/skproduct/subscriptionperiod
    open internal(set) var subscriptionPeriod: SKProductSubscriptionPeriod?
    /// https://developer.apple.com/documentation/storekit/skproduct/introductoryprice
    open internal(set) var introductoryPrice: SKProductDiscount?
    /// https://developer.apple.com/documentation/storekit/skproduct/discounts
    open internal(set) var discounts: [SKProductDiscount]
    /// https://developer.apple.com/documentation/storekit/skproduct/subscriptiongroupidentifier
    open internal(set) var subscriptionGroupIdentifier: String?

    /// Linux-only test scaffolding: a product the scripted App Store sells.
    public init(
        scriptedID id: String, title: String, price: Decimal, locale: Locale, period: SKProductSubscriptionPeriod? = nil,
        introductoryPrice: SKProductDiscount? = nil, discounts: [SKProductDiscount] = [], group: String? = nil
    ) {
        self.productIdentifier = id
        self.localizedTitle = title
        self.localizedDescription = title
        self.price = NSDecimalNumber(decimal: price)
        self.priceLocale = locale
        self.subscriptionPeriod = period
        self.introductoryPrice = introductoryPrice
        self.discounts = discounts
        self.subscriptionGroupIdentifier = group
    }

    /// https://developer.apple.com/documentation/storekit/skproduct/periodunit
    public enum PeriodUnit: UInt, Sendable {
        case day = 0
        case week = 1
        case month = 2
        case year = 3
    }
}

/// https://developer.apple.com/documentation/storekit/skproductsubscriptionperiod
@available(iOS, introduced: 11.2, deprecated: 18.0)
@available(macOS, introduced: 10.13.2, deprecated: 15.0)
open class SKProductSubscriptionPeriod: NSObject {
    /// https://developer.apple.com/documentation/storekit/skproductsubscriptionperiod/numberofunits
    open internal(set) var numberOfUnits: Int
    /// https://developer.apple.com/documentation/storekit/skproductsubscriptionperiod/unit
    open internal(set) var unit: SKProduct.PeriodUnit

    /// Linux-only test scaffolding.
    public init(scriptedUnits units: Int, unit: SKProduct.PeriodUnit) {
        self.numberOfUnits = units
        self.unit = unit
    }
}

/// https://developer.apple.com/documentation/storekit/skproductdiscount
@available(iOS, introduced: 11.2, deprecated: 18.0)
@available(macOS, introduced: 10.13.2, deprecated: 15.0)
open class SKProductDiscount: NSObject {
    /// https://developer.apple.com/documentation/storekit/skproductdiscount/price
    open internal(set) var price: NSDecimalNumber
    /// https://developer.apple.com/documentation/storekit/skproductdiscount/pricelocale
    open internal(set) var priceLocale: Locale
    /// https://developer.apple.com/documentation/storekit/skproductdiscount/identifier
    open internal(set) var identifier: String?
    /// https://developer.apple.com/documentation/storekit/skproductdiscount/subscriptionperiod
    open internal(set) var subscriptionPeriod: SKProductSubscriptionPeriod
    /// https://developer.apple.com/documentation/storekit/skproductdiscount/numberofperiods
    open internal(set) var numberOfPeriods: Int
    /// https://developer.apple.com/documentation/storekit/skproductdiscount/paymentmode-swift.property
    open internal(set) var paymentMode: SKProductDiscount.PaymentMode
    /// https://developer.apple.com/documentation/storekit/skproductdiscount/type-swift.property
    open internal(set) var type: SKProductDiscount.`Type`

    /// Linux-only test scaffolding.
    public init(
        scriptedID id: String?, type: SKProductDiscount.`Type`, price: Decimal, locale: Locale,
        period: SKProductSubscriptionPeriod, periods: Int, mode: SKProductDiscount.PaymentMode
    ) {
        self.identifier = id
        self.type = type
        self.price = NSDecimalNumber(decimal: price)
        self.priceLocale = locale
        self.subscriptionPeriod = period
        self.numberOfPeriods = periods
        self.paymentMode = mode
    }

    /// https://developer.apple.com/documentation/storekit/skproductdiscount/paymentmode-swift.enum
    public enum PaymentMode: UInt, Sendable {
        case payAsYouGo = 0
        case payUpFront = 1
        case freeTrial = 2
    }

    /// https://developer.apple.com/documentation/storekit/skproductdiscount/type-swift.enum
    public enum `Type`: UInt, Sendable {
        case introductory = 0
        case subscription = 1
    }
}
