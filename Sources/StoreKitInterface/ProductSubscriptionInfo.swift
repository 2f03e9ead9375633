public import Foundation

@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
extension Product {
    /// https://developer.apple.com/documentation/storekit/product/subscriptioninfo
    public struct SubscriptionInfo: Equatable, Hashable, Sendable {
        /// https://developer.apple.com/documentation/storekit/product/subscriptioninfo/introductoryoffer
        public let introductoryOffer: Product.SubscriptionOffer?
        /// https://developer.apple.com/documentation/storekit/product/subscriptioninfo/promotionaloffers
        public let promotionalOffers: [Product.SubscriptionOffer]
        /// https://developer.apple.com/documentation/storekit/product/subscriptioninfo/winbackoffers
        @available(iOS 18.0, macOS 15.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
        public var winBackOffers: [Product.SubscriptionOffer] { scriptedWinBackOffers }
        /// https://developer.apple.com/documentation/storekit/product/subscriptioninfo/subscriptiongroupid
        public let subscriptionGroupID: String
        /// https://developer.apple.com/documentation/storekit/product/subscriptioninfo/subscriptionperiod
        public let subscriptionPeriod: Product.SubscriptionPeriod

        let scriptedWinBackOffers: [Product.SubscriptionOffer]

        /// Linux-only test scaffolding: a subscription the scripted App Store sells.
        public init(
            scriptedGroupID: String, period: Product.SubscriptionPeriod, introductoryOffer: Product.SubscriptionOffer? = nil,
            promotionalOffers: [Product.SubscriptionOffer] = [], winBackOffers: [Product.SubscriptionOffer] = []
        ) {
            self.subscriptionGroupID = scriptedGroupID
            self.subscriptionPeriod = period
            self.introductoryOffer = introductoryOffer
            self.promotionalOffers = promotionalOffers
            self.scriptedWinBackOffers = winBackOffers
        }

        /// https://developer.apple.com/documentation/storekit/product/subscriptioninfo/iseligibleforintrooffer
        public var isEligibleForIntroOffer: Bool {
            get async { ScriptedAppStore.current.isEligibleForIntroOffer(group: subscriptionGroupID) }
        }

        /// https://developer.apple.com/documentation/storekit/product/subscriptioninfo/status-swift.property
        public var status: [Product.SubscriptionInfo.Status] {
            get async throws { ScriptedAppStore.current.statuses(group: subscriptionGroupID) }
        }

        /// https://developer.apple.com/documentation/storekit/product/subscriptioninfo/renewalstate
        public struct RenewalState: Equatable, Hashable, RawRepresentable, Sendable {
            public let rawValue: Int
            public init(rawValue: Int) { self.rawValue = rawValue }
            public static let subscribed = RenewalState(rawValue: 1)
            public static let expired = RenewalState(rawValue: 2)
            public static let inBillingRetryPeriod = RenewalState(rawValue: 3)
            public static let inGracePeriod = RenewalState(rawValue: 4)
            public static let revoked = RenewalState(rawValue: 5)
        }

        /// https://developer.apple.com/documentation/storekit/product/subscriptioninfo/status-swift.struct
        public struct Status: Equatable, Hashable, Sendable {
            /// https://developer.apple.com/documentation/storekit/product/subscriptioninfo/status-swift.struct/state
            public let state: Product.SubscriptionInfo.RenewalState
            /// https://developer.apple.com/documentation/storekit/product/subscriptioninfo/status-swift.struct/transaction
            public let transaction: VerificationResult<Transaction>
            /// https://developer.apple.com/documentation/storekit/product/subscriptioninfo/status-swift.struct/renewalinfo
            public let renewalInfo: VerificationResult<Product.SubscriptionInfo.RenewalInfo>

            public static func == (lhs: Status, rhs: Status) -> Bool {
                lhs.state == rhs.state && lhs.transaction.unsafePayloadValue == rhs.transaction.unsafePayloadValue
                    && lhs.renewalInfo.unsafePayloadValue == rhs.renewalInfo.unsafePayloadValue
            }

            public func hash(into hasher: inout Hasher) {
                hasher.combine(state)
                hasher.combine(transaction.unsafePayloadValue)
            }
        }

        /// https://developer.apple.com/documentation/storekit/product/subscriptioninfo/renewalinfo
        public struct RenewalInfo: Equatable, Hashable, Sendable {
            /// https://developer.apple.com/documentation/storekit/product/subscriptioninfo/renewalinfo/originaltransactionid
            public let originalTransactionID: UInt64
            /// https://developer.apple.com/documentation/storekit/product/subscriptioninfo/renewalinfo/currentproductid
            public let currentProductID: String
            /// https://developer.apple.com/documentation/storekit/product/subscriptioninfo/renewalinfo/willautorenew
            public let willAutoRenew: Bool
            /// https://developer.apple.com/documentation/storekit/product/subscriptioninfo/renewalinfo/autorenewpreference
            public let autoRenewPreference: String?
            /// https://developer.apple.com/documentation/storekit/product/subscriptioninfo/renewalinfo/graceperiodexpirationdate
            public let gracePeriodExpirationDate: Date?
            /// https://developer.apple.com/documentation/storekit/product/subscriptioninfo/renewalinfo/eligiblewinbackofferids
            @available(iOS 18.0, macOS 15.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
            public var eligibleWinBackOfferIDs: [String] { scriptedEligibleWinBackOfferIDs }

            let scriptedEligibleWinBackOfferIDs: [String]
        }
    }

    /// https://developer.apple.com/documentation/storekit/product/subscriptionperiod
    public struct SubscriptionPeriod: Equatable, Hashable, Sendable {
        /// https://developer.apple.com/documentation/storekit/product/subscriptionperiod/unit-swift.property
        public let unit: Product.SubscriptionPeriod.Unit
        /// https://developer.apple.com/documentation/storekit/product/subscriptionperiod/value
        public let value: Int

        /// Linux-only test scaffolding.
        public init(scriptedValue value: Int, unit: Product.SubscriptionPeriod.Unit) {
            self.value = value
            self.unit = unit
        }

        /// https://developer.apple.com/documentation/storekit/product/subscriptionperiod/unit-swift.enum
        public enum Unit: Equatable, Hashable, Sendable {
            case day
            case week
            case month
            case year
        }
    }

    /// https://developer.apple.com/documentation/storekit/product/subscriptionoffer
    public struct SubscriptionOffer: Equatable, Hashable, Sendable {
        /// https://developer.apple.com/documentation/storekit/product/subscriptionoffer/id
        public let id: String?
        /// https://developer.apple.com/documentation/storekit/product/subscriptionoffer/type-swift.property
        public let type: Product.SubscriptionOffer.OfferType
        /// https://developer.apple.com/documentation/storekit/product/subscriptionoffer/price
        public let price: Decimal
        /// https://developer.apple.com/documentation/storekit/product/subscriptionoffer/displayprice
        public let displayPrice: String
        /// https://developer.apple.com/documentation/storekit/product/subscriptionoffer/period
        public let period: Product.SubscriptionPeriod
        /// https://developer.apple.com/documentation/storekit/product/subscriptionoffer/periodcount
        public let periodCount: Int
        /// https://developer.apple.com/documentation/storekit/product/subscriptionoffer/paymentmode-swift.property
        public let paymentMode: Product.SubscriptionOffer.PaymentMode

        /// Linux-only test scaffolding.
        public init(
            scriptedID id: String?, type: Product.SubscriptionOffer.OfferType, price: Decimal, displayPrice: String,
            period: Product.SubscriptionPeriod, periodCount: Int, paymentMode: Product.SubscriptionOffer.PaymentMode
        ) {
            self.id = id
            self.type = type
            self.price = price
            self.displayPrice = displayPrice
            self.period = period
            self.periodCount = periodCount
            self.paymentMode = paymentMode
        }

        /// https://developer.apple.com/documentation/storekit/product/subscriptionoffer/offertype
        public struct OfferType: Equatable, Hashable, RawRepresentable, Sendable {
            public let rawValue: String
            public init(rawValue: String) { self.rawValue = rawValue }
            public static let introductory = OfferType(rawValue: "introductory")
            public static let promotional = OfferType(rawValue: "promotional")
            /// https://developer.apple.com/documentation/storekit/product/subscriptionoffer/offertype/winback
            @available(iOS 18.0, macOS 15.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
            public static let winBack = OfferType(rawValue: "winBack")
        }

        /// https://developer.apple.com/documentation/storekit/product/subscriptionoffer/paymentmode-swift.struct
        public struct PaymentMode: Equatable, Hashable, RawRepresentable, Sendable {
            public let rawValue: String
            public init(rawValue: String) { self.rawValue = rawValue }
            public static let freeTrial = PaymentMode(rawValue: "freeTrial")
            public static let payAsYouGo = PaymentMode(rawValue: "payAsYouGo")
            public static let payUpFront = PaymentMode(rawValue: "payUpFront")
        }
    }
}
