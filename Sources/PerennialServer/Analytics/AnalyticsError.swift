public import Hummingbird

/// An analytics request that cannot be answered as asked.
public enum AnalyticsError: Error, Equatable, HTTPResponseError, CodedError {
    case unknownApp(String)
    /// The range ends before it starts, or spans more days than a report may hold.
    case invalidRange(String)
    /// The filter names a product the app's catalog does not have, a storefront that is no
    /// storefront code, or an unknown offer type.
    case invalidFilter(String)

    public var code: String {
        switch self {
        case .unknownApp: "notFound"
        case .invalidRange: "invalidRange"
        case .invalidFilter: "invalidFilter"
        }
    }

    public var status: HTTPResponse.Status {
        switch self {
        case .unknownApp: .notFound
        case .invalidRange, .invalidFilter: .badRequest
        }
    }

    public var description: String {
        switch self {
        case .unknownApp(let id): "no app \(id) is configured"
        case .invalidRange(let reason), .invalidFilter(let reason): reason
        }
    }
}
