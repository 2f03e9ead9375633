public import PerennialCore

/// One app user's stored state in one app: the merged records and the view last computed from them.
public struct StoredSubscriber: Hashable, Sendable {
    public var records: RecordSet
    /// Nil until evidence bound to the user was applied; its histories come from `records`
    /// (``SubscriberView/storedForm``).
    public var view: SubscriberView?

    public init(records: RecordSet, view: SubscriberView?) {
        self.records = records
        self.view = view
    }
}
