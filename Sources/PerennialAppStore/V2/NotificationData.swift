/// The `data` of a V2 notification about a transaction: the app it concerns and the signed
/// transaction and renewal info that carry the facts.
public struct NotificationData: Codable, Hashable, Sendable {
    /// Absent in the sandbox.
    @Lenient<IntegerNumber<Int64>> public var appAppleId: Int64?
    public var bundleId: String?
    public var bundleVersion: String?
    public var environment: AppleEnvironment?
    /// A JWS whose payload is a ``JWSTransactionDecodedPayload``.
    public var signedTransactionInfo: String?
    /// A JWS whose payload is a ``JWSRenewalInfoDecodedPayload``; absent for non-subscriptions.
    public var signedRenewalInfo: String?
    /// Subscription status, for subscription notifications.
    public var status: AppleSubscriptionStatus?
    /// Only for CONSUMPTION_REQUEST.
    public var consumptionRequestReason: ConsumptionRequestReason?

    /// Creates notification data.
    public init(
        appAppleId: Int64? = nil,
        bundleId: String? = nil,
        bundleVersion: String? = nil,
        environment: AppleEnvironment? = nil,
        signedTransactionInfo: String? = nil,
        signedRenewalInfo: String? = nil,
        status: AppleSubscriptionStatus? = nil,
        consumptionRequestReason: ConsumptionRequestReason? = nil
    ) {
        self.appAppleId = appAppleId
        self.bundleId = bundleId
        self.bundleVersion = bundleVersion
        self.environment = environment
        self.signedTransactionInfo = signedTransactionInfo
        self.signedRenewalInfo = signedRenewalInfo
        self.status = status
        self.consumptionRequestReason = consumptionRequestReason
    }
}
