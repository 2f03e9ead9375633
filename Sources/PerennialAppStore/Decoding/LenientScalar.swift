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

    /// The forms a scalar can take, in the order a field with no usual form tries them.
    public enum Form: CaseIterable, Sendable {
        case string, number, bool
    }

    public init(from decoder: any Decoder) throws {
        try self.init(from: decoder, usually: .string)
    }

    /// Reads the scalar trying the field's `usual` form first: every form that does not match
    /// costs a thrown `DecodingError`, and a payload's dozens of date and integer fields would
    /// each throw once if strings always came first.
    public init(from decoder: any Decoder, usually usual: Form) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
            return
        }
        if let scalar = Self.read(usual, from: container) {
            self = scalar
            return
        }
        // The forms are disjoint except that an integer also reads as a Double, which `read`
        // settles by trying Int64 first.
        for form in Form.allCases where form != usual {
            if let scalar = Self.read(form, from: container) {
                self = scalar
                return
            }
        }
        throw DecodingError.typeMismatch(
            LenientScalar.self,
            DecodingError.Context(codingPath: decoder.codingPath, debugDescription: "expected a string, number or boolean, found an object or array")
        )
    }

    private static func read(_ form: Form, from container: any SingleValueDecodingContainer) -> LenientScalar? {
        switch form {
        case .string: (try? container.decode(String.self)).map(LenientScalar.string)
        case .number: (try? container.decode(Int64.self)).map(LenientScalar.integer) ?? (try? container.decode(Double.self)).map(LenientScalar.number)
        case .bool: (try? container.decode(Bool.self)).map(LenientScalar.bool)
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
