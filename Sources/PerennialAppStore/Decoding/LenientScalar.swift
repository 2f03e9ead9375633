/// One JSON scalar exactly as it arrived: Apple sends the same field as a string, a number or a
/// boolean depending on era and endpoint, so decoding first captures which form it was and the
/// ``LenientCoding`` of the field then decides what that form means.
///
/// Objects and arrays are not scalars: meeting one where a scalar belongs is a
/// `DecodingError.typeMismatch`, so a structurally wrong payload is still rejected.
public enum LenientScalar: Hashable, Sendable, Codable, CustomStringConvertible {
    case null
    case bool(Bool)
    /// A JSON number without fraction that fits a 64-bit integer.
    case integer(Int64)
    /// Any other JSON number (Xcode-signed dates such as `1697679936049.7297`).
    case number(Double)
    case string(String)

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        // The forms are disjoint except that an integer also reads as a Double, so the order only
        // puts Int64 before Double; beyond that it follows frequency, because each form that does
        // not match costs a thrown `DecodingError` (strings are most fields of Apple's payloads).
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else {
            throw DecodingError.typeMismatch(
                LenientScalar.self,
                DecodingError.Context(
                    codingPath: decoder.codingPath,
                    debugDescription: "expected a string, number or boolean, found an object or array"
                )
            )
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        }
    }

    /// Apple's convention for "absent": `null` or the empty string.
    public var isAbsent: Bool {
        switch self {
        case .null: true
        case .string(let text): text.isEmpty
        default: false
        }
    }

    /// The value as it would read in JSON, for error messages.
    public var description: String {
        switch self {
        case .null: "null"
        case .bool(let value): String(value)
        case .integer(let value): String(value)
        case .number(let value): String(value)
        case .string(let value): "\"\(value)\""
        }
    }
}
