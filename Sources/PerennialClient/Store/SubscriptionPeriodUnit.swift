/// A subscription period's unit, whichever StoreKit reported it; both adapters map theirs to this
/// so the ISO 8601 spelling is decided once.
enum SubscriptionPeriodUnit: Sendable {
    case day, week, month, year

    /// `P<value><unit>`: the spelling the server's catalog and Apple's JSON use.
    func iso8601(_ value: Int) -> String {
        switch self {
        case .day: "P\(value)D"
        case .week: "P\(value)W"
        case .month: "P\(value)M"
        case .year: "P\(value)Y"
        }
    }
}
