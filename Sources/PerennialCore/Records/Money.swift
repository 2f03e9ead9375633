/// An amount of money in integer milli-units of its currency (1.99 USD is 1990 milli-units).
///
/// Apple's V2 payloads already carry prices this way; integers keep sums and comparisons exact.
public struct Money: Hashable, Sendable, Codable {
    /// The amount in thousandths of the currency's unit.
    public var milliUnits: Int64
    /// ISO 4217 currency code, as Apple sends it (`USD`, `EUR`).
    public var currency: String

    public init(milliUnits: Int64, currency: String) {
        self.milliUnits = milliUnits
        self.currency = currency
    }
}
