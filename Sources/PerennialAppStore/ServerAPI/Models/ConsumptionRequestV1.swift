public import Foundation

/// The body of the deprecated v1 Send Consumption Information, with Apple's integer buckets.
/// Kept because the simulator must accept what older servers still send.
public struct ConsumptionRequestV1: Codable, Hashable, Sendable {
    @Lenient<BooleanValue> public var customerConsented: Bool?
    public var consumptionStatus: ConsumptionStatus?
    public var platform: ConsumptionPlatform?
    @Lenient<BooleanValue> public var sampleContentProvided: Bool?
    public var deliveryStatus: DeliveryStatusV1?
    public var appAccountToken: UUID?
    public var accountTenure: AccountTenure?
    public var playTime: PlayTime?
    public var lifetimeDollarsRefunded: LifetimeDollarsBucket?
    public var lifetimeDollarsPurchased: LifetimeDollarsBucket?
    public var userStatus: UserStatus?
    public var refundPreference: RefundPreferenceV1?

    /// Creates a request.
    public init(
        customerConsented: Bool? = nil,
        consumptionStatus: ConsumptionStatus? = nil,
        platform: ConsumptionPlatform? = nil,
        sampleContentProvided: Bool? = nil,
        deliveryStatus: DeliveryStatusV1? = nil,
        appAccountToken: UUID? = nil,
        accountTenure: AccountTenure? = nil,
        playTime: PlayTime? = nil,
        lifetimeDollarsRefunded: LifetimeDollarsBucket? = nil,
        lifetimeDollarsPurchased: LifetimeDollarsBucket? = nil,
        userStatus: UserStatus? = nil,
        refundPreference: RefundPreferenceV1? = nil
    ) {
        self.customerConsented = customerConsented
        self.consumptionStatus = consumptionStatus
        self.platform = platform
        self.sampleContentProvided = sampleContentProvided
        self.deliveryStatus = deliveryStatus
        self.appAccountToken = appAccountToken
        self.accountTenure = accountTenure
        self.playTime = playTime
        self.lifetimeDollarsRefunded = lifetimeDollarsRefunded
        self.lifetimeDollarsPurchased = lifetimeDollarsPurchased
        self.userStatus = userStatus
        self.refundPreference = refundPreference
    }
}
