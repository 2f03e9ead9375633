public import Foundation

/// https://developer.apple.com/documentation/storekit/skpaymenttransactionstate
@available(iOS, introduced: 3.0, deprecated: 18.0)
@available(macOS, introduced: 10.7, deprecated: 15.0)
public enum SKPaymentTransactionState: Int, Sendable {
    case purchasing = 0
    case purchased = 1
    case failed = 2
    case restored = 3
    case deferred = 4
}

/// https://developer.apple.com/documentation/storekit/skpaymenttransaction
@available(iOS, introduced: 3.0, deprecated: 18.0)
@available(macOS, introduced: 10.7, deprecated: 15.0)
open class SKPaymentTransaction: NSObject {
    /// https://developer.apple.com/documentation/storekit/skpaymenttransaction/error
    open internal(set) var error: (any Error)?
    /// https://developer.apple.com/documentation/storekit/skpaymenttransaction/original
    open internal(set) var original: SKPaymentTransaction?
    /// https://developer.apple.com/documentation/storekit/skpaymenttransaction/payment
    open internal(set) var payment: SKPayment
    /// https://developer.apple.com/documentation/storekit/skpaymenttransaction/transactiondate
    open internal(set) var transactionDate: Date?
    /// https://developer.apple.com/documentation/storekit/skpaymenttransaction/transactionidentifier
    open internal(set) var transactionIdentifier: String?
    /// https://developer.apple.com/documentation/storekit/skpaymenttransaction/transactionstate
    open internal(set) var transactionState: SKPaymentTransactionState

    /// Linux-only test scaffolding: a transaction the scripted payment queue delivers.
    public init(
        scriptedState state: SKPaymentTransactionState, payment: SKPayment, identifier: String? = nil,
        original: SKPaymentTransaction? = nil, error: (any Error)? = nil, date: Date? = nil
    ) {
        self.transactionState = state
        self.payment = payment
        self.transactionIdentifier = identifier
        self.original = original
        self.error = error
        self.transactionDate = date
    }
}

/// https://developer.apple.com/documentation/storekit/skerror
@available(iOS, introduced: 3.0, deprecated: 18.0)
@available(macOS, introduced: 10.7, deprecated: 15.0)
public struct SKError: Error, Equatable, Hashable, Sendable {
    /// https://developer.apple.com/documentation/storekit/skerror/code
    public enum Code: Int, Sendable {
        case unknown = 0
        case clientInvalid = 1
        case paymentCancelled = 2
        case paymentInvalid = 3
        case paymentNotAllowed = 4
        case storeProductNotAvailable = 5
        case cloudServicePermissionDenied = 6
        case cloudServiceNetworkConnectionFailed = 7
        case cloudServiceRevoked = 8
        case privacyAcknowledgementRequired = 9
        case unauthorizedRequestData = 10
        case invalidOfferIdentifier = 11
        case invalidSignature = 12
        case missingOfferParams = 13
        case invalidOfferPrice = 14
        case overlayCancelled = 15
        case overlayInvalidConfiguration = 16
        case overlayTimeout = 17
        case ineligibleForOffer = 18
        case unsupportedPlatform = 19
        case overlayPresentedInBackgroundScene = 20
    }

    /// https://developer.apple.com/documentation/storekit/skerror/code-swift.property
    public let code: SKError.Code

    public init(_ code: SKError.Code) {
        self.code = code
    }
}
