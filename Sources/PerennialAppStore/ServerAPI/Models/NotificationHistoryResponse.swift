/// One page of Get Notification History; `paginationToken` fetches the next while `hasMore`.
public struct NotificationHistoryResponse: Codable, Hashable, Sendable {
    public var paginationToken: String?
    @Lenient<BooleanValue> public var hasMore: Bool?
    public var notificationHistory: [NotificationHistoryResponseItem]?

    /// Creates a page.
    public init(
        paginationToken: String? = nil,
        hasMore: Bool? = nil,
        notificationHistory: [NotificationHistoryResponseItem]? = nil
    ) {
        self.paginationToken = paginationToken
        self.hasMore = hasMore
        self.notificationHistory = notificationHistory
    }
}
