public import Foundation

/// https://developer.apple.com/documentation/storekit/storekiterror
@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
public enum StoreKitError: Error, Equatable, Sendable {
    case unknown
    case userCancelled
    case networkError(URLError)
    case systemError(any Error)
    case notAvailableInStorefront
    case notEntitled
    /// https://developer.apple.com/documentation/storekit/storekiterror/unsupported
    @available(iOS 18.4, macOS 15.4, tvOS 18.4, watchOS 11.4, visionOS 2.4, *)
    case unsupported

    public static func == (lhs: StoreKitError, rhs: StoreKitError) -> Bool {
        String(describing: lhs) == String(describing: rhs)
    }
}
