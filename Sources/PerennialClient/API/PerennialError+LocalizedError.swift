public import Foundation

/// Sentences a user can read, for an alert or a banner; ``PerennialError/description`` stays the
/// technical one, for logs and bug reports. English only: an app that localizes switches on
/// ``PerennialError/code`` and uses its own strings.
extension PerennialError: LocalizedError {
    public var errorDescription: String? {
        switch code {
        case .serverUnreachable: "The subscription service could not be reached."
        case .serverRejected, .serverAnswerInvalid, .requestInvalid, .answerUnverified:
            "The subscription service could not confirm your purchases."
        case .productNotFound: "This item is not available in the App Store."
        case .purchaseNotAllowed: "Purchases are not allowed on this device."
        case .userCancelled: "Cancelled."
        case .purchaseFailed: "The App Store could not complete the purchase."
        case .offerUnavailable: "This offer is not available for your account."
        case .transactionMalformed, .storeFailed: "The App Store reported a problem."
        case .restoreFailed: "Your purchases could not be restored."
        case .receiptRefreshFailed, .noReceipt: "Your purchase record could not be loaded from the App Store."
        case .unsupported: "This is not available on this device."
        case .refundRequestFailed: "The refund request could not be sent."
        case .paidNotYetDelivered, .journalUnavailable: "Your purchase is being processed."
        case .appAccountTokenUnavailable: "This offer cannot be applied right now. You have not been charged."
        case .userSwitchRefused: "Your account could not be switched."
        }
    }

    public var recoverySuggestion: String? {
        switch code {
        case .serverUnreachable, .restoreFailed, .receiptRefreshFailed, .noReceipt, .appAccountTokenUnavailable:
            "Check your connection and try again."
        case .paidNotYetDelivered, .journalUnavailable:
            "You do not need to buy again: it will be unlocked as soon as the purchase reaches us."
        case .purchaseNotAllowed: "Purchases may be restricted in Screen Time settings."
        case .purchaseFailed, .storeFailed, .refundRequestFailed, .serverRejected, .serverAnswerInvalid, .answerUnverified: "Please try again later."
        case .requestInvalid, .productNotFound, .userCancelled, .offerUnavailable, .transactionMalformed, .unsupported, .userSwitchRefused: nil
        }
    }
}
