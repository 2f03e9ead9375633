public import Foundation

/// https://developer.apple.com/documentation/storekit/skpaymenttransactionobserver
///
/// Linux has no Objective-C optional requirements: the optional methods are requirements with
/// empty default implementations, which dispatch the same way for a conforming class.
@available(iOS, introduced: 3.0, deprecated: 18.0)
@available(macOS, introduced: 10.7, deprecated: 15.0)
public protocol SKPaymentTransactionObserver: NSObjectProtocol {
    /// https://developer.apple.com/documentation/storekit/skpaymenttransactionobserver/paymentqueue(_:updatedtransactions:)
    func paymentQueue(_ queue: SKPaymentQueue, updatedTransactions transactions: [SKPaymentTransaction])
    /// https://developer.apple.com/documentation/storekit/skpaymenttransactionobserver/paymentqueue(_:restorecompletedtransactionsfailedwitherror:)
    func paymentQueue(_ queue: SKPaymentQueue, restoreCompletedTransactionsFailedWithError error: any Error)
    /// https://developer.apple.com/documentation/storekit/skpaymenttransactionobserver/paymentqueuerestorecompletedtransactionsfinished(_:)
    func paymentQueueRestoreCompletedTransactionsFinished(_ queue: SKPaymentQueue)
}

extension SKPaymentTransactionObserver {
    public func paymentQueue(_ queue: SKPaymentQueue, restoreCompletedTransactionsFailedWithError error: any Error) {}
    public func paymentQueueRestoreCompletedTransactionsFinished(_ queue: SKPaymentQueue) {}
}
