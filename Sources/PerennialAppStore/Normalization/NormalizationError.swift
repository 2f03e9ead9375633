/// Why a decoded Apple payload could not become Core records.
///
/// Normalization never invents a value: a record without one of the fields the engine keys on
/// fails with the field's name and where the record sits in the payload.
public enum NormalizationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A mandatory field is absent (or `""`).
    case missingField(field: String, record: String)
    /// A field holds a value that cannot be represented (an app account token that is not a UUID).
    case invalidValue(field: String, value: String, record: String)
    /// The verifyReceipt answer's status carries no receipt to normalize (only 0 and 21006 do).
    case statusWithoutReceipt(VerifyReceiptStatus)

    public var description: String {
        switch self {
        case .missingField(let field, let record):
            "\(record) has no \(field)"
        case .invalidValue(let field, let value, let record):
            "\(record) has an unusable \(field): \(value)"
        case .statusWithoutReceipt(let status):
            "verifyReceipt status \(status.rawValue) (\(status.meaning)) carries no receipt to normalize"
        }
    }
}
