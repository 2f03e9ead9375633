public import Foundation

/// A JSON value the server keeps for the app and never interprets (an offering's paywall
/// description): the app decides its shape and can change it without a server release, so the
/// wire carries it as JSON, not as a type both sides would have to agree on.
///
/// Numbers keep their kind (`1` stays an integer, `1.5` a fraction), so a value goes through the
/// server and back unchanged.
public enum OpaqueJSON: Hashable, Sendable {
    case null
    case bool(Bool)
    case integer(Int64)
    case number(Double)
    case string(String)
    case array([OpaqueJSON])
    case object([String: OpaqueJSON])

    /// The value decoded as the app's own type (its paywall model), as if it had come alone over
    /// the wire.
    public func decode<T: Decodable>(_ type: T.Type, using decoder: JSONDecoder = JSONDecoder()) throws -> T {
        try decoder.decode(type, from: JSONEncoder().encode(self))
    }
}

extension OpaqueJSON: Codable {
    public init(from decoder: any Decoder) throws {
        if let object = try? decoder.container(keyedBy: MemberKey.self) {
            var members: [String: OpaqueJSON] = [:]
            for key in object.allKeys { members[key.stringValue] = try object.decode(OpaqueJSON.self, forKey: key) }
            self = .object(members)
            return
        }
        if var array = try? decoder.unkeyedContainer() {
            var elements: [OpaqueJSON] = []
            while !array.isAtEnd { elements.append(try array.decode(OpaqueJSON.self)) }
            self = .array(elements)
            return
        }
        let scalar = try decoder.singleValueContainer()
        if scalar.decodeNil() {
            self = .null
        } else if let value = try? scalar.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? scalar.decode(Int64.self) {
            self = .integer(value)
        } else if let value = try? scalar.decode(Double.self) {
            self = .number(value)
        } else {
            self = .string(try scalar.decode(String.self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .object(let members):
            var container = encoder.container(keyedBy: MemberKey.self)
            for (key, value) in members { try container.encode(value, forKey: MemberKey(stringValue: key)) }
        case .array(let elements):
            var container = encoder.unkeyedContainer()
            for element in elements { try container.encode(element) }
        case .null:
            var container = encoder.singleValueContainer()
            try container.encodeNil()
        case .bool(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .integer(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .number(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .string(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        }
    }

    /// Any member name of an object.
    private struct MemberKey: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}
