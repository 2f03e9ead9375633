public import Foundation

/// One HTTP response from Apple, fully collected.
///
/// Apple's answers are small JSON documents (or HTML error pages), so the clients classify the
/// whole body at once instead of streaming it.
public struct AppStoreHTTPResponse: Sendable, Equatable {
    /// The HTTP status code.
    public var status: Int
    /// Header fields keyed by lowercased name, because HTTP header names are case-insensitive and
    /// the clients look them up (`retry-after`, `content-type`) without caring how Apple spelled them.
    public private(set) var headers: [String: String]
    /// The body bytes, possibly empty.
    public var body: Data

    /// Creates a response; header names are lowercased, and repeated names are joined with ", "
    /// as RFC 9110 §5.3 allows.
    public init(status: Int, headers: [(name: String, value: String)] = [], body: Data = Data()) {
        self.status = status
        var folded: [String: String] = [:]
        for (name, value) in headers {
            let key = name.lowercased()
            if let existing = folded[key] {
                folded[key] = existing + ", " + value
            } else {
                folded[key] = value
            }
        }
        self.headers = folded
        self.body = body
    }

    /// The value of a header, looked up case-insensitively.
    public func header(_ name: String) -> String? {
        headers[name.lowercased()]
    }
}
