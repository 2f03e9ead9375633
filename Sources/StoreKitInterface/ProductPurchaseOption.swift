public import Foundation

@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
extension Product {
    /// https://developer.apple.com/documentation/storekit/product/purchaseoption
    public struct PurchaseOption: Equatable, Hashable, Sendable {
        /// Linux-only test scaffolding: what the option asks for, so the scripted App Store can act.
        /// (`@usableFromInline`: a back-deployed function's body is inlined into its callers.)
        @usableFromInline enum Kind: Hashable, Sendable {
            case appAccountToken(UUID)
            case promotionalOffer(offerID: String, keyID: String, nonce: UUID, signature: Data, timestamp: Int)
            case promotionalOfferJWS(offerID: String, compactJWS: String)
            case winBackOffer(offerID: String?)
            case introductoryOfferEligibility(compactJWS: String)
            case simulatesAskToBuyInSandbox(Bool)
        }

        @usableFromInline let kind: Kind

        @usableFromInline init(kind: Kind) {
            self.kind = kind
        }

        /// https://developer.apple.com/documentation/storekit/product/purchaseoption/appaccounttoken(_:)
        public static func appAccountToken(_ token: UUID) -> Product.PurchaseOption {
            PurchaseOption(kind: .appAccountToken(token))
        }

        /// https://developer.apple.com/documentation/storekit/product/purchaseoption/promotionaloffer(offerid:keyid:nonce:signature:timestamp:)
        @available(iOS, introduced: 15.0, deprecated: 26.0)
        @available(macOS, introduced: 12.0, deprecated: 26.0)
        @available(tvOS, introduced: 15.0, deprecated: 26.0)
        @available(watchOS, introduced: 8.0, deprecated: 26.0)
        @available(visionOS, introduced: 1.0, deprecated: 26.0)
        public static func promotionalOffer(offerID: String, keyID: String, nonce: UUID, signature: Data, timestamp: Int)
            -> Product.PurchaseOption
        {
            PurchaseOption(kind: .promotionalOffer(offerID: offerID, keyID: keyID, nonce: nonce, signature: signature, timestamp: timestamp))
        }

        #if !STOREKIT_INTERFACE_XCODE16_3
        /// https://developer.apple.com/documentation/storekit/product/purchaseoption/promotionaloffer(_:compactjws:)
        /// New in the Xcode 26 SDK and back-deployed to iOS 15: an app built with Xcode 16.3 or 16.4
        /// (which `swift-tools-version: 6.1` allows) does not have it at all.
        @backDeployed(before: iOS 26.0, macOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0)
        public static func promotionalOffer(_ offerID: String, compactJWS: String) -> [Product.PurchaseOption] {
            [PurchaseOption(kind: .promotionalOfferJWS(offerID: offerID, compactJWS: compactJWS))]
        }
        #endif

        /// https://developer.apple.com/documentation/storekit/product/purchaseoption/introductoryoffereligibility(compactjws:)
        /// New in the iOS 18.4 SDK (Xcode 16.3) and back-deployed to iOS 15, so both SDKs the
        /// package builds with have it.
        @backDeployed(before: iOS 18.4, macOS 15.4, tvOS 18.4, watchOS 11.4, visionOS 2.4)
        public static func introductoryOfferEligibility(compactJWS: String) -> Product.PurchaseOption {
            PurchaseOption(kind: .introductoryOfferEligibility(compactJWS: compactJWS))
        }

        /// https://developer.apple.com/documentation/storekit/product/purchaseoption/winbackoffer(_:)
        @available(iOS 18.0, macOS 15.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
        public static func winBackOffer(_ offer: Product.SubscriptionOffer) -> Product.PurchaseOption {
            PurchaseOption(kind: .winBackOffer(offerID: offer.id))
        }

        /// https://developer.apple.com/documentation/storekit/product/purchaseoption/simulatesasktobuyinsandbox(_:)
        public static func simulatesAskToBuyInSandbox(_ simulatesAskToBuy: Bool) -> Product.PurchaseOption {
            PurchaseOption(kind: .simulatesAskToBuyInSandbox(simulatesAskToBuy))
        }
    }
}
