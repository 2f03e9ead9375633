public import Foundation

/// The progress of a mass renewal-date extension.
public struct MassExtendRenewalDateStatusResponse: Codable, Hashable, Sendable {
    public var requestIdentifier: String?
    @Lenient<BooleanValue> public var complete: Bool?
    @Lenient<EpochMilliseconds> public var completeDate: Date?
    @Lenient<IntegerNumber<Int64>> public var succeededCount: Int64?
    @Lenient<IntegerNumber<Int64>> public var failedCount: Int64?

    /// Creates a status.
    public init(
        requestIdentifier: String? = nil,
        complete: Bool? = nil,
        completeDate: Date? = nil,
        succeededCount: Int64? = nil,
        failedCount: Int64? = nil
    ) {
        self.requestIdentifier = requestIdentifier
        self.complete = complete
        self.completeDate = completeDate
        self.succeededCount = succeededCount
        self.failedCount = failedCount
    }
}
