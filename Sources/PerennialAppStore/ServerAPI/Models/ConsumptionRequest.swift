/// The body of Send Consumption Information (v2 endpoint): what the developer tells Apple about a
/// consumable or subscription whose refund the customer requested.
public struct ConsumptionRequest: Codable, Hashable, Sendable {
    /// Required: whether the customer consented to sharing this data.
    @Lenient<BooleanValue> public var customerConsented: Bool?
    /// Share of the purchase consumed, in milli-percent (0–100000).
    @Lenient<IntegerNumber<Int>> public var consumptionPercentage: Int?
    public var deliveryStatus: DeliveryStatus?
    public var refundPreference: RefundPreference?
    @Lenient<BooleanValue> public var sampleContentProvided: Bool?

    /// Creates a request.
    public init(
        customerConsented: Bool? = nil,
        consumptionPercentage: Int? = nil,
        deliveryStatus: DeliveryStatus? = nil,
        refundPreference: RefundPreference? = nil,
        sampleContentProvided: Bool? = nil
    ) {
        self.customerConsented = customerConsented
        self.consumptionPercentage = consumptionPercentage
        self.deliveryStatus = deliveryStatus
        self.refundPreference = refundPreference
        self.sampleContentProvided = sampleContentProvided
    }
}
