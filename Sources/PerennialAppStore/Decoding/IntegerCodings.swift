import Foundation

/// An integer (or integer-coded Apple enum) that Apple sends as a JSON number — the V2 form.
/// Decimal text (`"21002"`) and whole floating-point numbers read too; other text is a
/// `DecodingError` (`"appAppleId": "blue"` must not become `nil`).
public enum IntegerNumber<Value: LenientIntegerConvertible>: LenientCoding {
    public static var usualForm: LenientScalar.Form { .number }

    public static func value(from scalar: LenientScalar, codingPath: [any CodingKey]) throws -> Value {
        let integer: Int64?
        switch scalar {
        case .integer(let value):
            integer = value
        case .number(let value):
            integer = Int64(exactly: value)
        case .string(let text):
            integer = Int64(text.trimmingCharacters(in: .whitespaces))
        case .bool, .null:
            throw typeMismatch(scalar, expected: "an integer", codingPath: codingPath)
        }
        guard let integer, let value = Value(lenientInteger: integer) else {
            throw unreadable(scalar, expected: "an integer in range of \(Value.self)", codingPath: codingPath)
        }
        return value
    }

    public static func scalar(for value: Value) -> LenientScalar {
        .integer(value.lenientInteger)
    }
}

/// An integer (or integer-coded Apple enum) that Apple sends as decimal text — the legacy form
/// (`"quantity": "1"`, `"expiration_intent": "1"`). Reads like ``IntegerNumber``; writes text.
public enum IntegerText<Value: LenientIntegerConvertible>: LenientCoding {
    public static func value(from scalar: LenientScalar, codingPath: [any CodingKey]) throws -> Value {
        try IntegerNumber<Value>.value(from: scalar, codingPath: codingPath)
    }

    public static func scalar(for value: Value) -> LenientScalar {
        .string(String(value.lenientInteger))
    }
}
