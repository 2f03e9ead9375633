extension PerennialError {
    /// What went wrong, as a value an app can switch on and send to its analytics: the raw values are
    /// part of the SDK's contract and never change meaning (new reasons get new codes).
    ///
    /// The error's cases carry the detail (the server's status, StoreKit's own error); the code
    /// folds them into the handful of situations an app reacts to differently.
    public enum Code: String, Sendable, Hashable, CaseIterable {
        /// No answer from the server (network down, DNS, timeout). Retrying later can work.
        case serverUnreachable = "server_unreachable"
        /// The server answered with an error status.
        case serverRejected = "server_rejected"
        /// The server's answer could not be read.
        case serverAnswerInvalid = "server_answer_invalid"
        /// The request could not be built (configuration: a bad URL).
        case requestInvalid = "request_invalid"
        /// A signed answer did not verify: something between the device and the server changed it.
        case answerUnverified = "answer_unverified"
        /// The store sells no product with that id.
        case productNotFound = "product_not_found"
        /// This device may not pay (Screen Time, MDM).
        case purchaseNotAllowed = "purchase_not_allowed"
        /// The user dismissed a sheet: not a failure, show nothing.
        case userCancelled = "user_cancelled"
        /// The store declined the payment.
        case purchaseFailed = "purchase_failed"
        /// The offer asked for does not apply here.
        case offerUnavailable = "offer_unavailable"
        /// The store handed over a transaction that cannot be read.
        case transactionMalformed = "transaction_malformed"
        /// Restoring purchases failed.
        case restoreFailed = "restore_failed"
        /// Refreshing the app receipt failed.
        case receiptRefreshFailed = "receipt_refresh_failed"
        /// Apple's refund request sheet failed (already requested, or not possible now).
        case refundRequestFailed = "refund_request_failed"
        /// The device has no app receipt yet.
        case noReceipt = "no_receipt"
        /// The store framework (or the simulator) failed otherwise; see ``PerennialError/underlyingError``.
        case storeFailed = "store_failed"
        /// Not available on this platform or OS version.
        case unsupported = "unsupported"
        /// Paid and safe, not yet acknowledged by the server: tell the user it is being processed.
        case paidNotYetDelivered = "paid_not_yet_delivered"
        /// The journal could not be written; the store keeps the transaction for the next launch.
        case journalUnavailable = "journal_unavailable"
        /// A signed promotional offer needs the app account token the server could not give.
        case appAccountTokenUnavailable = "app_account_token_unavailable"
        /// `logIn` or `logOut` switched no user (an anonymous or empty id, or the app's own
        /// `appUserID` provider decides the user).
        case userSwitchRefused = "user_switch_refused"
    }

    /// The stable code of this error.
    public var code: Code {
        switch self {
        case .server(let error): Self.code(of: error)
        case .store(let error): Self.code(of: error)
        case .notYetDelivered: .paidNotYetDelivered
        case .journalUnavailable: .journalUnavailable
        case .appAccountTokenUnavailable: .appAccountTokenUnavailable
        case .userSwitchRefused: .userSwitchRefused
        }
    }

    /// True when the user cancelled: show nothing, log nothing as a failure.
    public var isCancelled: Bool { code == .userCancelled }

    /// The store framework's or the network's own error, when there is one: StoreKit's
    /// `StoreKitError` or `Product.PurchaseError`, or the ``ServerError`` that made an upload fail.
    public var underlyingError: (any Error)? {
        switch self {
        case .server(let error), .notYetDelivered(_, let error), .appAccountTokenUnavailable(let error): error
        case .store(let error): error.underlyingError
        case .journalUnavailable, .userSwitchRefused: nil
        }
    }

    private static func code(of error: ServerError) -> Code {
        switch error {
        case .unreachable: .serverUnreachable
        case .http: .serverRejected
        case .decoding: .serverAnswerInvalid
        case .invalidRequest: .requestInvalid
        case .unverifiedAnswer: .answerUnverified
        }
    }

    private static func code(of error: StoreError) -> Code {
        switch error {
        case .productNotFound: .productNotFound
        case .purchaseNotAllowed: .purchaseNotAllowed
        case .userCancelled: .userCancelled
        case .purchaseFailed: .purchaseFailed
        case .offerUnavailable: .offerUnavailable
        case .malformedTransaction: .transactionMalformed
        case .restoreFailed: .restoreFailed
        case .receiptRefreshFailed: .receiptRefreshFailed
        case .refundRequestFailed: .refundRequestFailed
        case .noReceipt: .noReceipt
        case .simulator, .platform: .storeFailed
        case .unsupported: .unsupported
        }
    }
}
