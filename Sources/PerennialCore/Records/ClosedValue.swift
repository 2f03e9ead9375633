/// A setting spelled as one of a fixed set of names (an admin key's scope, a transfer policy):
/// unlike an ``OpenValue``, an unknown name is a mistake, refused with the names that would do —
/// Foundation's own refusal ("Cannot initialize AdminScope from invalid String value admin")
/// names a Swift type and none of the choices.
public protocol ClosedValue: RawRepresentable, CaseIterable, Codable where RawValue == String {}

extension ClosedValue {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let name = try container.decode(String.self)
        guard let value = Self(rawValue: name) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "\"\(name)\" is not one of \(Self.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        self = value
    }
}
