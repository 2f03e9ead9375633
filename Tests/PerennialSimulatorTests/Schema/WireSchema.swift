import Foundation
import PerennialAppStore

/// One of Apple's documented JSON objects: each field's exact wire type and allowed values, and the
/// fields Apple always sends. Written from Apple's documentation pages (``AppleWireSchemas``).
struct WireSchema: Sendable {
    /// A field's type on the wire. Types are exact: an `integer` field holding `1.5` or `"1"`
    /// fails, a `string` holding `1` fails.
    indirect enum FieldType: Sendable {
        case string
        /// A string out of Apple's value set.
        case oneOf([String])
        /// A string holding a UUID.
        case uuid
        /// A JSON number without a fraction.
        case integer
        /// An integer out of Apple's value set.
        case integerIn([Int64])
        /// A UNIX time in whole milliseconds, written as a JSON integer.
        case milliseconds
        /// An integer written as a string (verifyReceipt's `quantity`).
        case integerText
        /// A UNIX time in whole milliseconds written as a string (verifyReceipt's `…_ms`).
        case millisecondsText
        case boolean
        case array(FieldType)
        case object(WireSchema)
        /// A compact JWS whose payload is the schema's object.
        case jws(WireSchema)
        /// An object Apple documents elsewhere and Perennial carries verbatim.
        case anyObject
    }

    let name: String
    let fields: [String: FieldType]
    let required: Set<String>

    init(_ name: String, required: Set<String> = [], _ fields: [String: FieldType]) {
        self.name = name
        self.fields = fields
        self.required = required
        precondition(required.isSubset(of: Set(fields.keys)), "\(name): a required field must be documented")
    }

    /// Every way `value` departs from the schema, each named by its path; empty when it conforms.
    func violations(of value: JSONValue, at path: String = "") -> [String] {
        let here = path.isEmpty ? name : path
        guard case .object(let object) = value else { return ["\(here): expected an object \(name)"] }
        var found: [String] = []
        for key in required.sorted() where object[key] == nil || object[key] == .null {
            found.append("\(here).\(key): required by Apple, missing")
        }
        for (key, member) in object.sorted(by: { $0.key < $1.key }) {
            guard let type = fields[key] else {
                found.append("\(here).\(key): not a field of Apple's \(name)")
                continue
            }
            found += Self.violations(of: member, as: type, at: "\(here).\(key)")
        }
        return found
    }

    private static func violations(of value: JSONValue, as type: FieldType, at path: String) -> [String] {
        switch (type, value) {
        case (.string, .string): return []
        case (.oneOf(let allowed), .string(let text)):
            return allowed.contains(text) ? [] : ["\(path): \"\(text)\" is not one of Apple's values \(allowed)"]
        case (.uuid, .string(let text)):
            return UUID(uuidString: text) == nil ? ["\(path): \"\(text)\" is not a UUID"] : []
        case (.integer, .integer): return []
        case (.integerIn(let allowed), .integer(let number)):
            return allowed.contains(number) ? [] : ["\(path): \(number) is not one of Apple's values \(allowed)"]
        case (.milliseconds, .integer(let number)):
            // Between 2001 and 2100: a date in seconds, or in microseconds, is caught too.
            return (978_307_200_000...4_102_444_800_000).contains(number) ? [] : ["\(path): \(number) is not a UNIX time in milliseconds"]
        case (.integerText, .string(let text)):
            return Int64(text) == nil ? ["\(path): \"\(text)\" is not an integer"] : []
        case (.millisecondsText, .string(let text)):
            return violations(of: Int64(text).map(JSONValue.integer) ?? .string(text), as: .milliseconds, at: path)
        case (.boolean, .bool): return []
        case (.array(let element), .array(let items)):
            return items.enumerated().flatMap { violations(of: $1, as: element, at: "\(path)[\($0)]") }
        case (.object(let schema), .object): return schema.violations(of: value, at: path)
        case (.anyObject, .object): return []
        case (.jws(let schema), .string(let compact)):
            guard let payload = try? JWSDecoding.unverifiedPayload(of: compact), let decoded = try? JSONDecoder().decode(JSONValue.self, from: payload)
            else { return ["\(path): not a compact JWS"] }
            return schema.violations(of: decoded, at: path + "⟨\(schema.name)⟩")
        default:
            return ["\(path): expected \(type.label), found \(value.label)"]
        }
    }
}

extension WireSchema.FieldType {
    var label: String {
        switch self {
        case .string, .oneOf, .uuid: "a string"
        case .millisecondsText: "a string of milliseconds"
        case .integerText: "a string of an integer"
        case .integer, .integerIn: "an integer"
        case .milliseconds: "an integer of milliseconds"
        case .boolean: "a boolean"
        case .array: "an array"
        case .object, .anyObject: "an object"
        case .jws: "a JWS string"
        }
    }
}

extension JSONValue {
    var label: String {
        switch self {
        case .null: "null"
        case .bool(let value): "boolean \(value)"
        case .integer(let value): "integer \(value)"
        case .number(let value): "number \(value)"
        case .string(let value): "string \"\(value.prefix(40))\""
        case .array: "an array"
        case .object: "an object"
        }
    }
}
