/// An Apple enum coded as an integer (`offerType`, `expirationIntent`, verifyReceipt `status`, …)
/// kept open: a value Perennial has never heard of is carried with its number instead of failing
/// the decode, because Apple adds values every year.
///
/// The integer twin of Core's `OpenValue`. Decodes leniently (`1` or `"1"`), encodes as a number;
/// legacy fields that Apple sends as text use `@Lenient<IntegerText<T>>` instead.
public protocol OpenIntegerValue: RawRepresentable, LenientIntegerConvertible, Codable, Comparable,
    CustomStringConvertible, ExpressibleByIntegerLiteral where RawValue == Int
{
    init(rawValue: Int)
}

extension OpenIntegerValue {
    public init(integerLiteral value: Int) { self.init(rawValue: value) }

    public init?(lenientInteger: Int64) {
        guard let raw = Int(exactly: lenientInteger) else { return nil }
        self.init(rawValue: raw)
    }

    public var lenientInteger: Int64 { Int64(rawValue) }

    public init(from decoder: any Decoder) throws {
        let scalar = try LenientScalar(from: decoder, usually: .number)
        guard !scalar.isAbsent else {
            throw IntegerNumber<Self>.typeMismatch(scalar, expected: "an integer", codingPath: decoder.codingPath)
        }
        self = try IntegerNumber<Self>.value(from: scalar, codingPath: decoder.codingPath)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

    public var description: String { String(rawValue) }
}
