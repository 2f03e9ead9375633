/// How one kind of field reads a ``LenientScalar`` and how it writes its value back.
///
/// Decoding is lenient about the *form* (a number may come as `"123"`) but strict about the
/// *meaning*: text that is not a number in a number field, or a boolean in an identifier field, is
/// a `DecodingError` rather than a silent `nil`. Encoding always writes Apple's own form for the
/// field, so a model re-encodes to what Apple would send.
public protocol LenientCoding {
    /// The typed value the field holds.
    associatedtype Value: Hashable & Sendable

    /// The value a present, non-empty scalar stands for; throws `DecodingError` when it means nothing.
    static func value(from scalar: LenientScalar, codingPath: [any CodingKey]) throws -> Value

    /// The scalar Apple sends for `value`.
    static func scalar(for value: Value) -> LenientScalar

    /// The form Apple usually sends, read first (``LenientScalar/init(from:usually:)``).
    static var usualForm: LenientScalar.Form { get }
}

extension LenientCoding {
    public static var usualForm: LenientScalar.Form { .string }

    /// The error for a scalar of the wrong kind (a boolean where an identifier belongs).
    static func typeMismatch(_ scalar: LenientScalar, expected: String, codingPath: [any CodingKey]) -> DecodingError {
        DecodingError.typeMismatch(
            Value.self,
            DecodingError.Context(codingPath: codingPath, debugDescription: "expected \(expected), found \(scalar)")
        )
    }

    /// The error for a scalar of an acceptable kind whose content means nothing (`"blue"` as a number).
    static func unreadable(_ scalar: LenientScalar, expected: String, codingPath: [any CodingKey]) -> DecodingError {
        DecodingError.dataCorrupted(
            DecodingError.Context(codingPath: codingPath, debugDescription: "expected \(expected), found \(scalar)")
        )
    }
}
