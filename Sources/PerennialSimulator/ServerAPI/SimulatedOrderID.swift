/// The order id (the one on the customer's e-mailed invoice) of a simulated transaction.
///
/// Apple prints an order id per charge — the purchase, and each renewal — and Look Up Order ID
/// answers with that charge's transactions. The simulator derives it from the transaction id so it
/// is deterministic and needs no storage: `M` followed by the transaction id in upper-case
/// base 36 (transaction `2000000000000001` is order `MJOXVBDJ37L`, the same shape as Apple's
/// upper-case order ids).
public enum SimulatedOrderID {
    /// The order id of the transaction with id `transactionID` (decimal digits).
    public static func orderID(forTransactionID transactionID: String) -> String? {
        guard let number = UInt64(transactionID) else { return nil }
        return "M" + String(number, radix: 36, uppercase: true)
    }

    /// The transaction id an order id stands for; nil when the text is not one of ours.
    public static func transactionID(forOrderID orderID: String) -> String? {
        guard orderID.hasPrefix("M"), orderID.count > 1 else { return nil }
        let digits = orderID.dropFirst()
        guard digits.allSatisfy({ $0.isASCII && ($0.isNumber || $0.isUppercase) }), let number = UInt64(digits, radix: 36) else {
            return nil
        }
        return String(number)
    }
}
