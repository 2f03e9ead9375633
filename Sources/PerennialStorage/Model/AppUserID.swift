/// The app's own identifier for one of its users (an account id, or an anonymous install id).
///
/// A newtype rather than a bare `String` so an app user id cannot be passed where a transaction id
/// or a bundle id is expected: purchases are bound to it, and mixing them up would hand a purchase
/// to the wrong person.
public struct AppUserID: RawRepresentable, Hashable, Sendable, Codable, Comparable, CustomStringConvertible,
    ExpressibleByStringLiteral
{
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }

    public init(_ rawValue: String) { self.rawValue = rawValue }

    public init(stringLiteral value: String) { self.rawValue = value }

    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(String.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

    public var description: String { rawValue }
}
