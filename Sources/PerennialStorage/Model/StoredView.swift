public import PerennialCore

/// How the back ends store a subscriber view: without its subscriptions' histories.
///
/// A subscription's history is exactly its ledger's transactions, and the user's stored records
/// already hold them, written in the same transaction as the view. Storing the history again made
/// every apply encode the subscription's whole past, so a renewal cost three times a first purchase
/// and grew with every period; without it the stored view is the size of the subscriber's present.
extension SubscriberView {
    /// This view as it is written: every subscription's history left out.
    public var storedForm: SubscriberView {
        var stored = self
        for index in stored.subscriptions.indices { stored.subscriptions[index].history = [] }
        return stored
    }

    /// The view a stored form was made from, given `records`: the records of the purchases bound
    /// to the user, which are the ones the view was computed from.
    public func restoringHistories(from records: RecordSet) -> SubscriberView {
        var view = self
        for index in view.subscriptions.indices {
            view.subscriptions[index].history = records.ledger(originalTransactionID: view.subscriptions[index].originalTransactionID)?.transactions ?? []
        }
        return view
    }
}
