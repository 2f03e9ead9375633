/// Why an offer signature could not be created.
public enum OfferSignatureError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A required identifier is empty; StoreKit would reject the signature.
    case emptyField(String)
    /// A field contains U+2063 (INVISIBLE SEPARATOR), which delimits the legacy signed message and
    /// would let one field's text pose as another's.
    case separatorInField(name: String, value: String)
    /// The signing operation itself failed.
    case signingFailed(String)

    /// A readable reason naming the field.
    public var description: String {
        switch self {
        case .emptyField(let name): "offer signature field \(name) is empty"
        case .separatorInField(let name, let value): "offer signature field \(name) contains U+2063: \(value)"
        case .signingFailed(let reason): "offer signature could not be created: \(reason)"
        }
    }
}
