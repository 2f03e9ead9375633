/// The answer of Get All Subscription Statuses: the latest signed transaction and renewal info of
/// every subscription of the customer, grouped by subscription group.
public struct StatusResponse: Codable, Hashable, Sendable {
    public var environment: AppleEnvironment?
    public var bundleId: String?
    @Lenient<IntegerNumber<Int64>> public var appAppleId: Int64?
    public var data: [SubscriptionGroupIdentifierItem]?

    /// Creates a response.
    public init(
        environment: AppleEnvironment? = nil,
        bundleId: String? = nil,
        appAppleId: Int64? = nil,
        data: [SubscriptionGroupIdentifierItem]? = nil
    ) {
        self.environment = environment
        self.bundleId = bundleId
        self.appAppleId = appAppleId
        self.data = data
    }
}
