/// A type that a whole JSON number — or its decimal text — can stand for.
///
/// Plain integers and Apple's integer-coded enums (``OpenIntegerValue``) adopt it so one pair of
/// codings (``IntegerNumber`` and ``IntegerText``) reads them all.
public protocol LenientIntegerConvertible: Hashable, Sendable {
    /// Nil when `lenientInteger` is outside the type's range.
    init?(lenientInteger: Int64)
    var lenientInteger: Int64 { get }
}

extension Int: LenientIntegerConvertible {
    public init?(lenientInteger: Int64) { self.init(exactly: lenientInteger) }
    public var lenientInteger: Int64 { Int64(self) }
}

extension Int64: LenientIntegerConvertible {
    public init?(lenientInteger: Int64) { self = lenientInteger }
    public var lenientInteger: Int64 { self }
}
