public import Foundation

/// The body of Set App Account Token: binds an original transaction to an app account after the
/// fact (for purchases made without `appAccountToken`).
public struct UpdateAppAccountTokenRequest: Codable, Hashable, Sendable {
    public var appAccountToken: UUID?

    /// Creates a request.
    public init(appAccountToken: UUID? = nil) {
        self.appAccountToken = appAccountToken
    }
}
