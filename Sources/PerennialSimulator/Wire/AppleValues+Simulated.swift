import PerennialAppStore
import PerennialCore

// Core's named values → Apple's raw wire values, the inverse of the App Store layer's
// normalization. A Core value normalization kept as `apple:<raw>` goes back to `<raw>`; any other
// value Apple has no spelling for is left out of the payload (nil).

extension OpenValue {
    /// The raw Apple value of a Core value that normalization could not name.
    var unmappedAppleRaw: String? {
        rawValue.hasPrefix("apple:") ? String(rawValue.dropFirst("apple:".count)) : nil
    }
}

extension AppleEnvironment {
    init(simulated environment: AppStoreEnvironment) {
        self.init(rawValue: environment.rawValue)
    }
}

extension AppleProductType {
    init?(simulated type: ProductType) {
        switch type {
        case .autoRenewable: self = .autoRenewable
        case .nonRenewing: self = .nonRenewing
        case .consumable: self = .consumable
        case .nonConsumable: self = .nonConsumable
        default:
            guard let raw = type.unmappedAppleRaw else { return nil }
            self.init(rawValue: raw)
        }
    }
}

extension AppleOwnershipType {
    init?(simulated ownership: Ownership) {
        switch ownership {
        case .purchased: self = .purchased
        case .familyShared: self = .familyShared
        default:
            guard let raw = ownership.unmappedAppleRaw else { return nil }
            self.init(rawValue: raw)
        }
    }
}

extension AppleTransactionReason {
    init?(simulated reason: TransactionReason) {
        switch reason {
        case .purchase: self = .purchase
        case .renewal: self = .renewal
        default:
            guard let raw = reason.unmappedAppleRaw else { return nil }
            self.init(rawValue: raw)
        }
    }
}

extension AppleOfferType {
    init?(simulated type: OfferType) {
        switch type {
        case .introductory: self = .introductoryOffer
        case .promotional: self = .promotionalOffer
        case .offerCode: self = .subscriptionOfferCode
        case .winBack: self = .winBackOffer
        default:
            guard let raw = type.unmappedAppleRaw.flatMap({ Int($0) }) else { return nil }
            self.init(rawValue: raw)
        }
    }
}

extension AppleOfferDiscountType {
    init?(simulated mode: OfferPaymentMode) {
        switch mode {
        case .freeTrial: self = .freeTrial
        case .payAsYouGo: self = .payAsYouGo
        case .payUpFront: self = .payUpFront
        default:
            guard let raw = mode.unmappedAppleRaw else { return nil }
            self.init(rawValue: raw)
        }
    }
}

extension AppleRevocationReason {
    init?(simulated reason: RevocationReason) {
        switch reason {
        case .developerIssue: self = .refundedDueToIssue
        case .other: self = .refundedForOtherReason
        default:
            guard let raw = reason.unmappedAppleRaw.flatMap({ Int($0) }) else { return nil }
            self.init(rawValue: raw)
        }
    }
}

extension AppleRevocationType {
    init?(simulated type: RevocationType) {
        switch type {
        case .refundFull: self = .refundFull
        case .refundProrated: self = .refundProrated
        case .familyRevoke: self = .familyRevoke
        default:
            guard let raw = type.unmappedAppleRaw else { return nil }
            self.init(rawValue: raw)
        }
    }
}

extension AppleExpirationIntent {
    init?(simulated reason: ExpirationReason) {
        switch reason {
        case .voluntary: self = .customerCancelled
        case .billingError: self = .billingError
        case .declinedPriceIncrease: self = .customerDidNotConsentToPriceIncrease
        case .productUnavailable: self = .productNotAvailable
        case .other: self = .other
        default:
            guard let raw = reason.unmappedAppleRaw.flatMap({ Int($0) }) else { return nil }
            self.init(rawValue: raw)
        }
    }
}

extension ApplePriceIncreaseStatus {
    init?(simulated status: PriceIncreaseStatus) {
        switch status {
        case .pending: self = .customerHasNotResponded
        case .accepted: self = .customerConsentedOrWasNotifiedWithoutNeedingConsent
        default:
            guard let raw = status.unmappedAppleRaw.flatMap({ Int($0) }) else { return nil }
            self.init(rawValue: raw)
        }
    }
}

extension AppleSubscriptionStatus {
    init(simulated status: SimulatedSubscriptionStatus) {
        self.init(rawValue: status.rawValue)
    }
}

extension BillingPlanType {
    init?(simulated plan: BillingPlan) {
        switch plan {
        case .billedUpfront: self = .billedUpfront
        case .monthly: self = .monthly
        default:
            guard let raw = plan.unmappedAppleRaw else { return nil }
            self.init(rawValue: raw)
        }
    }
}
