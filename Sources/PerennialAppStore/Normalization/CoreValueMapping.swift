import PerennialCore

// Apple's raw values → Core's named values. A value Apple adds later is kept as
// `apple:<raw>` in the Core open value, so it is stored and visible instead of being dropped or
// mistaken for a known one.

extension OpenValue {
    /// The Core value for an Apple raw value Perennial does not know yet.
    static func unmapped(_ raw: some CustomStringConvertible) -> Self {
        Self(rawValue: "apple:\(raw)")
    }
}

extension AppleEnvironment {
    /// V1's `PROD` and `Production` are the same environment.
    var coreValue: AppStoreEnvironment {
        switch self {
        case .production, .prod: .production
        case .sandbox: .sandbox
        case .xcode: .xcode
        case .localTesting: .localTesting
        default: .unmapped(rawValue)
        }
    }
}

extension AppleOfferType {
    var coreValue: OfferType {
        switch self {
        case .introductoryOffer: .introductory
        case .promotionalOffer: .promotional
        case .subscriptionOfferCode: .offerCode
        case .winBackOffer: .winBack
        default: .unmapped(rawValue)
        }
    }
}

extension AppleOfferDiscountType {
    var coreValue: OfferPaymentMode {
        switch self {
        case .freeTrial: .freeTrial
        case .payAsYouGo: .payAsYouGo
        case .payUpFront: .payUpFront
        default: .unmapped(rawValue)
        }
    }
}

extension AppleProductType {
    var coreValue: ProductType {
        switch self {
        case .autoRenewable: .autoRenewable
        case .nonRenewing: .nonRenewing
        case .consumable: .consumable
        case .nonConsumable: .nonConsumable
        default: .unmapped(rawValue)
        }
    }
}

extension AppleOwnershipType {
    var coreValue: Ownership {
        switch self {
        case .purchased: .purchased
        case .familyShared: .familyShared
        default: .unmapped(rawValue)
        }
    }
}

extension AppleTransactionReason {
    var coreValue: TransactionReason {
        switch self {
        case .purchase: .purchase
        case .renewal: .renewal
        default: .unmapped(rawValue)
        }
    }
}

extension AppleRevocationReason {
    var coreValue: RevocationReason {
        switch self {
        case .refundedDueToIssue: .developerIssue
        case .refundedForOtherReason: .other
        default: .unmapped(rawValue)
        }
    }
}

extension AppleRevocationType {
    var coreValue: RevocationType {
        switch self {
        case .refundFull: .refundFull
        case .refundProrated: .refundProrated
        case .familyRevoke: .familyRevoke
        default: .unmapped(rawValue)
        }
    }
}

extension AppleExpirationIntent {
    var coreValue: ExpirationReason {
        switch self {
        case .customerCancelled: .voluntary
        case .billingError: .billingError
        case .customerDidNotConsentToPriceIncrease: .declinedPriceIncrease
        case .productNotAvailable: .productUnavailable
        case .other: .other
        default: .unmapped(rawValue)
        }
    }
}

extension ApplePriceIncreaseStatus {
    var coreValue: PriceIncreaseStatus {
        switch self {
        case .customerHasNotResponded: .pending
        case .customerConsentedOrWasNotifiedWithoutNeedingConsent: .accepted
        default: .unmapped(rawValue)
        }
    }
}

extension BillingPlanType {
    var coreValue: BillingPlan {
        switch self {
        case .billedUpfront: .billedUpfront
        case .monthly: .monthly
        default: .unmapped(rawValue)
        }
    }
}

extension AppleAutoRenewStatus {
    /// Whether the subscription will renew. Core keeps this as a plain flag, so a value other than
    /// 0 or 1 cannot be carried and is reported instead of guessed.
    func willAutoRenew(record: String) throws(NormalizationError) -> Bool {
        switch self {
        case .on: return true
        case .off: return false
        default: throw .invalidValue(field: "auto renew status", value: description, record: record)
        }
    }
}
