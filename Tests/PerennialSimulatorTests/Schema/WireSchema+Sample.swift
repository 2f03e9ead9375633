import Foundation
import PerennialAppStore

extension WireSchema {
    /// A payload carrying every documented field, each with a value of Apple's type (the first
    /// allowed value of a value set): what Perennial's decoders must read without losing a field.
    var fullSample: JSONValue {
        .object(fields.mapValues(Self.sample))
    }

    private static func sample(_ type: FieldType) -> JSONValue {
        switch type {
        case .string: .string("x1")
        case .oneOf(let allowed): .string(allowed[0])
        case .uuid: .string("7E3FB20B-4CDB-47CC-936D-99D65F608138")
        case .integer: .integer(7)
        case .integerIn(let allowed): .integer(allowed[0])
        case .milliseconds: .integer(1_700_000_000_123)
        case .millisecondsText: .string("1700000000123")
        case .integerText: .string("1")
        case .boolean: .bool(true)
        case .array(let element): .array([sample(element)])
        case .object(let schema): schema.fullSample
        // Decoders keep a nested JWS as text; its payload has a schema of its own.
        case .jws: .string("eyJhbGciOiJFUzI1NiJ9.eyJ9.c2ln")
        case .anyObject: .object(["sku": .string("x1")])
        }
    }

    /// The documented fields missing from `value` (a decoder's re-encoding of ``fullSample``),
    /// with their paths: the fields the decoder dropped.
    func droppedFields(in value: JSONValue, at path: String = "") -> [String] {
        let here = path.isEmpty ? name : path
        guard case .object(let object) = value else { return ["\(here): not an object"] }
        return fields.keys.sorted().flatMap { key -> [String] in
            guard let member = object[key], member != .null else { return ["\(here).\(key)"] }
            switch fields[key] {
            case .object(let schema)?: return schema.droppedFields(in: member, at: "\(here).\(key)")
            case .array(.object(let schema))?:
                guard case .array(let items) = member, let first = items.first else { return ["\(here).\(key)[]"] }
                return schema.droppedFields(in: first, at: "\(here).\(key)[0]")
            default: return []
            }
        }
    }
}
