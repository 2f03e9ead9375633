import Foundation
import PerennialAppStore

extension WireSchema {
    /// Every documented field, named `Object.field` after the schema that documents it, with the
    /// fields of nested objects and of nested JWS payloads: what a walk of produced payloads should
    /// find at least once.
    var documentedFields: Set<String> {
        fields.reduce(into: []) { found, field in
            found.insert("\(name).\(field.key)")
            if let nested = Self.nested(field.value) { found.formUnion(nested.documentedFields) }
        }
    }

    /// The documented fields `value` carries, named as ``documentedFields`` names them.
    func presentFields(in value: JSONValue) -> Set<String> {
        guard case .object(let object) = value else { return [] }
        return object.reduce(into: []) { found, member in
            guard let type = fields[member.key], member.value != .null else { return }
            found.insert("\(name).\(member.key)")
            found.formUnion(Self.presentFields(in: member.value, as: type))
        }
    }

    private static func presentFields(in value: JSONValue, as type: FieldType) -> Set<String> {
        switch (type, value) {
        case (.object(let schema), _): schema.presentFields(in: value)
        case (.array(let element), .array(let items)): items.reduce(into: []) { $0.formUnion(presentFields(in: $1, as: element)) }
        case (.jws(let schema), .string(let compact)):
            (try? JWSDecoding.unverifiedPayload(of: compact)).flatMap { try? JSONDecoder().decode(JSONValue.self, from: $0) }
                .map(schema.presentFields) ?? []
        default: []
        }
    }

    /// The schema of an object nested in a field, directly, in an array or in a JWS.
    private static func nested(_ type: FieldType) -> WireSchema? {
        switch type {
        case .object(let schema), .jws(let schema): schema
        case .array(let element): nested(element)
        default: nil
        }
    }
}
