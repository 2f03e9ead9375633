/// A value from a set Apple grows every year (offer types, revocation reasons, environments, …).
///
/// Each such set is a `RawRepresentable` string struct rather than a closed `enum`, so a value
/// Perennial has never heard of is carried through — stored, compared, re-encoded — instead of
/// failing a decode. Known values are static members; unknown ones keep Apple's raw text.
public protocol OpenValue: RawRepresentable, Hashable, Sendable, Codable, Comparable,
    CustomStringConvertible, ExpressibleByStringLiteral where RawValue == String
{
    init(rawValue: String)
}

extension OpenValue {
    public init(stringLiteral value: String) { self.init(rawValue: value) }

    public init(from decoder: any Decoder) throws {
        self.init(rawValue: try decoder.singleValueContainer().decode(String.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

    public var description: String { rawValue }
}
