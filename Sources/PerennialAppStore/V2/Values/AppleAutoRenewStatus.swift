/// Apple's `autoRenewStatus` / legacy `auto_renew_status` (0 off, 1 on), kept open.
public struct AppleAutoRenewStatus: OpenIntegerValue {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Auto-renew is off.
    public static let off: Self = 0
    /// The subscription will renew.
    public static let on: Self = 1
}
