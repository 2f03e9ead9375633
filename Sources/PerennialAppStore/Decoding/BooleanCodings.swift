/// Reads every spelling of a boolean Apple has used: JSON `true`/`false`, the numbers `0`/`1`,
/// and the strings `"true"`/`"false"` (receipt transactions, V1 `auto_renew_status`) or
/// `"0"`/`"1"` (pending renewal info). Anything else is a `DecodingError`, not a guess.
enum LegacyBoolean {
    static func value<Coding: LenientCoding>(
        from scalar: LenientScalar, codingPath: [any CodingKey], for coding: Coding.Type
    ) throws -> Bool {
        switch scalar {
        case .bool(let value):
            return value
        case .integer(0): return false
        case .integer(1): return true
        case .string(let text):
            switch text.lowercased() {
            case "true", "1": return true
            case "false", "0": return false
            default: throw Coding.unreadable(scalar, expected: "a boolean", codingPath: codingPath)
            }
        case .integer, .number:
            throw Coding.unreadable(scalar, expected: "a boolean (0 or 1)", codingPath: codingPath)
        case .null:
            throw Coding.typeMismatch(scalar, expected: "a boolean", codingPath: codingPath)
        }
    }
}

/// A boolean that Apple sends as JSON `true`/`false` (V2, `is_retryable`); other spellings read too.
public enum BooleanValue: LenientCoding {
    public static var usualForm: LenientScalar.Form { .bool }

    public static func value(from scalar: LenientScalar, codingPath: [any CodingKey]) throws -> Bool {
        try LegacyBoolean.value(from: scalar, codingPath: codingPath, for: Self.self)
    }

    public static func scalar(for value: Bool) -> LenientScalar { .bool(value) }
}

/// A boolean that Apple sends as the text `"true"`/`"false"` (`is_trial_period`, `is_upgraded`).
public enum TrueFalseText: LenientCoding {
    public static func value(from scalar: LenientScalar, codingPath: [any CodingKey]) throws -> Bool {
        try LegacyBoolean.value(from: scalar, codingPath: codingPath, for: Self.self)
    }

    public static func scalar(for value: Bool) -> LenientScalar { .string(value ? "true" : "false") }
}

/// A boolean that Apple sends as the text `"1"`/`"0"` (`is_in_billing_retry_period`).
public enum ZeroOneText: LenientCoding {
    public static func value(from scalar: LenientScalar, codingPath: [any CodingKey]) throws -> Bool {
        try LegacyBoolean.value(from: scalar, codingPath: codingPath, for: Self.self)
    }

    public static func scalar(for value: Bool) -> LenientScalar { .string(value ? "1" : "0") }
}
