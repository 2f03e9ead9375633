/// A value from a set the server may grow (statuses, period types, eligibility answers).
///
/// Such sets are string structs rather than closed enums, so an app shipped today keeps working
/// when a newer server sends a value it has never heard of: the value is carried, not rejected.
/// Encoded as the bare string.
public protocol OpenWireValue: RawRepresentable, Codable, Sendable, Hashable, CustomStringConvertible
where RawValue == String {
    /// Any value, known or not.
    init(rawValue: String)
}

extension OpenWireValue {
    /// Decodes the bare string.
    public init(from decoder: any Decoder) throws {
        self.init(rawValue: try decoder.singleValueContainer().decode(String.self))
    }

    /// Encodes the bare string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    /// The wire value.
    public var description: String { rawValue }
}
