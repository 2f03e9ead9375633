/// An identifier (transaction id, web order line item id): a string in real Apple answers, an
/// integer number in many hand-written fixtures. Both read as the same text; a boolean, a
/// fractional number, an object or an array is a `DecodingError`, because an identifier that
/// cannot be trusted must not key a subscription.
public enum IdentifierText: LenientCoding {
    public static func value(from scalar: LenientScalar, codingPath: [any CodingKey]) throws -> String {
        switch scalar {
        case .string(let text):
            return text
        case .integer(let value):
            return String(value)
        case .number, .bool, .null:
            throw typeMismatch(scalar, expected: "an identifier (string or integer)", codingPath: codingPath)
        }
    }

    public static func scalar(for value: String) -> LenientScalar {
        .string(value)
    }
}
