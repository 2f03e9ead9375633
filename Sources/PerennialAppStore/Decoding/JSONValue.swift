/// Any JSON value, kept verbatim.
///
/// Used for parts of Apple's payloads that Perennial carries but does not interpret (the Advanced
/// Commerce `advancedCommerceInfo` object): they survive decoding and re-encoding unchanged
/// without freezing a model of a fast-moving API.
public enum JSONValue: Hashable, Sendable, Codable {
    case null
    case bool(Bool)
    case integer(Int64)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    public init(from decoder: any Decoder) throws {
        if let object = try? decoder.container(keyedBy: AnyKey.self) {
            var values: [String: JSONValue] = [:]
            for key in object.allKeys {
                values[key.stringValue] = try object.decode(JSONValue.self, forKey: key)
            }
            self = .object(values)
        } else if var array = try? decoder.unkeyedContainer() {
            var values: [JSONValue] = []
            while !array.isAtEnd {
                values.append(try array.decode(JSONValue.self))
            }
            self = .array(values)
        } else {
            switch try LenientScalar(from: decoder) {
            case .null: self = .null
            case .bool(let value): self = .bool(value)
            case .integer(let value): self = .integer(value)
            case .number(let value): self = .number(value)
            case .string(let value): self = .string(value)
            }
        }
    }

    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .null: try LenientScalar.null.encode(to: encoder)
        case .bool(let value): try LenientScalar.bool(value).encode(to: encoder)
        case .integer(let value): try LenientScalar.integer(value).encode(to: encoder)
        case .number(let value): try LenientScalar.number(value).encode(to: encoder)
        case .string(let value): try LenientScalar.string(value).encode(to: encoder)
        case .array(let values): try values.encode(to: encoder)
        case .object(let values):
            var container = encoder.container(keyedBy: AnyKey.self)
            for (key, value) in values {
                try container.encode(value, forKey: AnyKey(stringValue: key))
            }
        }
    }

    /// A coding key for arbitrary object members.
    private struct AnyKey: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}
