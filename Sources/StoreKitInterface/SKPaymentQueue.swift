public import Foundation

/// https://developer.apple.com/documentation/storekit/skpaymentqueue
///
/// Linux-only: the queue is the scripted App Store's (``ScriptedAppStore/paymentQueue``); tests
/// drive it with ``ScriptedAppStore`` and its `deliver…` methods.
@available(iOS, introduced: 3.0, deprecated: 18.0)
@available(macOS, introduced: 10.7, deprecated: 15.0)
open class SKPaymentQueue: NSObject {
    unowned let appStore: ScriptedAppStore

    init(appStore: ScriptedAppStore) {
        self.appStore = appStore
    }

    /// https://developer.apple.com/documentation/storekit/skpaymentqueue/default()
    open class func `default`() -> Self {
        ScriptedAppStore.current.paymentQueue as! Self
    }

    /// https://developer.apple.com/documentation/storekit/skpaymentqueue/canmakepayments()
    open class func canMakePayments() -> Bool {
        ScriptedAppStore.current.canMakePayments
    }

    /// https://developer.apple.com/documentation/storekit/skpaymentqueue/transactions
    open var transactions: [SKPaymentTransaction] {
        appStore.queueTransactions()
    }

    /// https://developer.apple.com/documentation/storekit/skpaymentqueue/add(_:)-5ciz2
    open func add(_ observer: any SKPaymentTransactionObserver) {
        appStore.addObserver(observer)
    }

    /// https://developer.apple.com/documentation/storekit/skpaymentqueue/remove(_:)
    open func remove(_ observer: any SKPaymentTransactionObserver) {
        appStore.removeObserver(observer)
    }

    /// https://developer.apple.com/documentation/storekit/skpaymentqueue/add(_:)-6qw9d
    open func add(_ payment: SKPayment) {
        appStore.addPayment(payment)
    }

    /// https://developer.apple.com/documentation/storekit/skpaymentqueue/finishtransaction(_:)
    open func finishTransaction(_ transaction: SKPaymentTransaction) {
        appStore.finishQueueTransaction(transaction)
    }

    /// https://developer.apple.com/documentation/storekit/skpaymentqueue/restorecompletedtransactions()
    open func restoreCompletedTransactions() {
        appStore.restoreCompletedTransactions(applicationUsername: nil)
    }

    /// https://developer.apple.com/documentation/storekit/skpaymentqueue/restorecompletedtransactions(withapplicationusername:)
    open func restoreCompletedTransactions(withApplicationUsername username: String?) {
        appStore.restoreCompletedTransactions(applicationUsername: username)
    }
}
