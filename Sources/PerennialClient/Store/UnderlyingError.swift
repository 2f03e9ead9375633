/// The error a store framework (StoreKit, the simulator's device API) actually threw, kept whole.
///
/// An app that needs StoreKit's own reason (`StoreKitError.networkError`, `Product.PurchaseError.ineligibleForOffer`)
/// casts ``error`` instead of parsing a message; the SDK's own ``PerennialError/code`` stays the stable
/// thing to switch on. Two are equal when they are of the same type and describe themselves alike,
/// which is what tests and `Equatable` results need (StoreKit's errors are not all `Equatable`).
public struct UnderlyingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The framework's error as it was thrown.
    public let error: any Error

    /// Keeps `error` as it is.
    public init(_ error: any Error) {
        self.error = error
    }

    /// The framework's own description of the error.
    public var description: String { String(describing: error) }

    public static func == (lhs: UnderlyingError, rhs: UnderlyingError) -> Bool {
        ObjectIdentifier(type(of: lhs.error)) == ObjectIdentifier(type(of: rhs.error)) && lhs.description == rhs.description
    }
}
