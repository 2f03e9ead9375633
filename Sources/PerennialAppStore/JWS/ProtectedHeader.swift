/// A JWS header as it arrives: Apple's fields (``JWSHeader``) and the `crit` parameter, which
/// ``JWSHeader`` has no place for because no header Perennial accepts may carry it.
///
/// RFC 7515 §4.1.11: a recipient must refuse a JWS whose `crit` lists an extension it does not
/// understand, and a `crit` that is not a non-empty array of names is malformed. Apple's JWS use
/// no extension and Perennial understands none, so any `crit` is refused. It is read in the same
/// decoding as the other fields, so every path that reads a header (verification, and the
/// unverified decoding of StoreKit-testing data) applies the rule, and a header that carries it
/// never reaches the chain cache.
struct ProtectedHeader: Decodable {
    /// Apple's fields.
    let fields: JWSHeader
    /// The `crit` value as sent; nil when the header has none (a JSON `null` is a value, and malformed).
    let critical: JSONValue?

    private enum Keys: String, CodingKey {
        case crit
    }

    init(from decoder: any Decoder) throws {
        fields = try JWSHeader(from: decoder)
        let container = try decoder.container(keyedBy: Keys.self)
        critical = container.contains(.crit) ? try container.decode(JSONValue.self, forKey: .crit) : nil
    }

    /// The header's fields, when it has no `crit`.
    func checked() throws(JWSVerificationError) -> JWSHeader {
        guard let critical else { return fields }
        guard case .array(let items) = critical, !items.isEmpty else { throw Self.malformedCritical }
        let names = items.compactMap { item in
            if case .string(let name) = item { name } else { nil }
        }
        guard names.count == items.count, Set(names).count == names.count else { throw Self.malformedCritical }
        throw .unsupportedCriticalParameters(names)
    }

    private static let malformedCritical = JWSVerificationError.malformed(
        #"the header's "crit" is not a non-empty array of distinct parameter names (RFC 7515 §4.1.11)"#)
}
