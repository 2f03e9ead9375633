public import Foundation

/// https://developer.apple.com/documentation/storekit/skpayment
@available(iOS, introduced: 3.0, deprecated: 18.0)
@available(macOS, introduced: 10.7, deprecated: 15.0)
open class SKPayment: NSObject {
    /// https://developer.apple.com/documentation/storekit/skpayment/productidentifier
    open internal(set) var productIdentifier: String = ""
    /// https://developer.apple.com/documentation/storekit/skpayment/applicationusername
    open internal(set) var applicationUsername: String?
    /// https://developer.apple.com/documentation/storekit/skpayment/paymentdiscount
    open internal(set) var paymentDiscount: SKPaymentDiscount?
    /// https://developer.apple.com/documentation/storekit/skpayment/quantity
    open internal(set) var quantity: Int = 1

    public override init() {
        super.init()
    }

    /// https://developer.apple.com/documentation/storekit/skpayment/init(product:)
    public convenience init(product: SKProduct) {
        self.init()
        self.productIdentifier = product.productIdentifier
    }
}

/// https://developer.apple.com/documentation/storekit/skmutablepayment
@available(iOS, introduced: 3.0, deprecated: 18.0)
@available(macOS, introduced: 10.7, deprecated: 15.0)
open class SKMutablePayment: SKPayment {
    /// https://developer.apple.com/documentation/storekit/skmutablepayment/productidentifier
    open override var productIdentifier: String {
        get { super.productIdentifier }
        set { super.productIdentifier = newValue }
    }
    /// https://developer.apple.com/documentation/storekit/skmutablepayment/applicationusername
    open override var applicationUsername: String? {
        get { super.applicationUsername }
        set { super.applicationUsername = newValue }
    }
    /// https://developer.apple.com/documentation/storekit/skmutablepayment/paymentdiscount
    open override var paymentDiscount: SKPaymentDiscount? {
        get { super.paymentDiscount }
        set { super.paymentDiscount = newValue }
    }
    /// https://developer.apple.com/documentation/storekit/skmutablepayment/quantity
    open override var quantity: Int {
        get { super.quantity }
        set { super.quantity = newValue }
    }
}

/// https://developer.apple.com/documentation/storekit/skpaymentdiscount
@available(iOS, introduced: 12.2, deprecated: 18.0)
@available(macOS, introduced: 10.14.4, deprecated: 15.0)
open class SKPaymentDiscount: NSObject {
    /// https://developer.apple.com/documentation/storekit/skpaymentdiscount/identifier
    public let identifier: String
    /// https://developer.apple.com/documentation/storekit/skpaymentdiscount/keyidentifier
    public let keyIdentifier: String
    /// https://developer.apple.com/documentation/storekit/skpaymentdiscount/nonce
    public let nonce: UUID
    /// https://developer.apple.com/documentation/storekit/skpaymentdiscount/signature
    public let signature: String
    /// https://developer.apple.com/documentation/storekit/skpaymentdiscount/timestamp
    public let timestamp: NSNumber

    /// https://developer.apple.com/documentation/storekit/skpaymentdiscount/init(identifier:keyidentifier:nonce:signature:timestamp:)
    public init(identifier: String, keyIdentifier: String, nonce: UUID, signature: String, timestamp: NSNumber) {
        self.identifier = identifier
        self.keyIdentifier = keyIdentifier
        self.nonce = nonce
        self.signature = signature
        self.timestamp = timestamp
    }
}
