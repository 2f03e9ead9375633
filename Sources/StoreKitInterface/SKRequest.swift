public import Foundation

/// https://developer.apple.com/documentation/storekit/skrequest
///
/// Linux cannot narrow an inherited property's type as Objective-C does, so `delegate` is declared
/// on each subclass with Apple's type for it.
@available(iOS, introduced: 3.0, deprecated: 18.0)
@available(macOS, introduced: 10.7, deprecated: 15.0)
open class SKRequest: NSObject {
    /// https://developer.apple.com/documentation/storekit/skrequest/start()
    open func start() {}
    /// https://developer.apple.com/documentation/storekit/skrequest/cancel()
    open func cancel() {}
}

/// https://developer.apple.com/documentation/storekit/skrequestdelegate
@available(iOS, introduced: 3.0, deprecated: 18.0)
@available(macOS, introduced: 10.7, deprecated: 15.0)
public protocol SKRequestDelegate: NSObjectProtocol {
    /// https://developer.apple.com/documentation/storekit/skrequestdelegate/requestdidfinish(_:)
    func requestDidFinish(_ request: SKRequest)
    /// https://developer.apple.com/documentation/storekit/skrequestdelegate/request(_:didfailwitherror:)
    func request(_ request: SKRequest, didFailWithError error: any Error)
}

extension SKRequestDelegate {
    public func requestDidFinish(_ request: SKRequest) {}
    public func request(_ request: SKRequest, didFailWithError error: any Error) {}
}

/// https://developer.apple.com/documentation/storekit/skreceiptrefreshrequest
@available(iOS, introduced: 7.0, deprecated: 18.0)
@available(macOS, introduced: 10.9, deprecated: 15.0)
open class SKReceiptRefreshRequest: SKRequest {
    /// https://developer.apple.com/documentation/storekit/skrequest/delegate
    open weak var delegate: (any SKRequestDelegate)?

    /// https://developer.apple.com/documentation/storekit/skreceiptrefreshrequest/init(receiptproperties:)
    public init(receiptProperties properties: [String: Any]?) {}

    public override convenience init() {
        self.init(receiptProperties: nil)
    }

    open override func start() {
        let appStore = ScriptedAppStore.current
        switch appStore.refreshReceipt() {
        case .success: delegate?.requestDidFinish(self)
        case .failure(let error): delegate?.request(self, didFailWithError: error)
        }
    }
}

/// https://developer.apple.com/documentation/storekit/skproductsrequest
@available(iOS, introduced: 3.0, deprecated: 18.0)
@available(macOS, introduced: 10.7, deprecated: 15.0)
open class SKProductsRequest: SKRequest {
    /// https://developer.apple.com/documentation/storekit/skproductsrequest/delegate
    open weak var delegate: (any SKProductsRequestDelegate)?
    private let identifiers: Set<String>

    /// https://developer.apple.com/documentation/storekit/skproductsrequest/init(productidentifiers:)
    public init(productIdentifiers: Set<String>) {
        self.identifiers = productIdentifiers
    }

    open override func start() {
        switch ScriptedAppStore.current.legacyProducts(for: identifiers) {
        case .success(let response):
            delegate?.productsRequest(self, didReceive: response)
            delegate?.requestDidFinish(self)
        case .failure(let error):
            delegate?.request(self, didFailWithError: error)
        }
    }
}

/// https://developer.apple.com/documentation/storekit/skproductsrequestdelegate
@available(iOS, introduced: 3.0, deprecated: 18.0)
@available(macOS, introduced: 10.7, deprecated: 15.0)
public protocol SKProductsRequestDelegate: SKRequestDelegate {
    /// https://developer.apple.com/documentation/storekit/skproductsrequestdelegate/productsrequest(_:didreceive:)
    func productsRequest(_ request: SKProductsRequest, didReceive response: SKProductsResponse)
}

/// https://developer.apple.com/documentation/storekit/skproductsresponse
@available(iOS, introduced: 3.0, deprecated: 18.0)
@available(macOS, introduced: 10.7, deprecated: 15.0)
open class SKProductsResponse: NSObject {
    /// https://developer.apple.com/documentation/storekit/skproductsresponse/products
    open internal(set) var products: [SKProduct]
    /// https://developer.apple.com/documentation/storekit/skproductsresponse/invalidproductidentifiers
    open internal(set) var invalidProductIdentifiers: [String]

    init(products: [SKProduct], invalidProductIdentifiers: [String]) {
        self.products = products
        self.invalidProductIdentifiers = invalidProductIdentifiers
    }
}
