/// A model field decoded with a ``LenientCoding``: missing, `null` and `""` all read as `nil`; any
/// other scalar is read by the coding; a nil value is left out when encoding.
///
/// Being a property wrapper keeps the models declarative (`@Lenient<EpochMilliseconds> var
/// purchaseDate: Date?`) while every quirk of Apple's wire lives in one coding type.
@propertyWrapper
public struct Lenient<Coding: LenientCoding>: Hashable, Sendable {
    public var wrappedValue: Coding.Value?

    public init(wrappedValue: Coding.Value?) {
        self.wrappedValue = wrappedValue
    }
}

extension Lenient: Codable {
    public init(from decoder: any Decoder) throws {
        let scalar = try LenientScalar(from: decoder, usually: Coding.usualForm)
        wrappedValue = scalar.isAbsent ? nil : try Coding.value(from: scalar, codingPath: decoder.codingPath)
    }

    public func encode(to encoder: any Encoder) throws {
        try (wrappedValue.map(Coding.scalar(for:)) ?? .null).encode(to: encoder)
    }
}

extension KeyedDecodingContainer {
    /// Lets a missing key decode as `nil` for synthesized `Decodable` conformances, as it does for
    /// plain optionals.
    public func decode<Coding>(_ type: Lenient<Coding>.Type, forKey key: Key) throws -> Lenient<Coding> {
        try decodeIfPresent(type, forKey: key) ?? Lenient(wrappedValue: nil)
    }
}

extension KeyedEncodingContainer {
    /// Leaves a nil value out of the JSON, as synthesized `Encodable` does for plain optionals.
    public mutating func encode<Coding>(_ value: Lenient<Coding>, forKey key: Key) throws {
        guard let wrapped = value.wrappedValue else { return }
        try encode(Coding.scalar(for: wrapped), forKey: key)
    }
}
