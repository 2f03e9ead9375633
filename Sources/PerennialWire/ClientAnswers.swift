/// `GET /v1/subscribers/{appUserId}/app-account-token`.
public struct AppAccountTokenResponse: Codable, Equatable, Sendable {
    /// Lowercased UUID to pass to StoreKit 2 purchases, tying them to the app user.
    public var appAccountToken: String

    public init(appAccountToken: String) {
        self.appAccountToken = appAccountToken
    }
}

/// `POST /v1/subscribers/{appUserId}/eligibility`.
public struct EligibilityResponse: Codable, Equatable, Sendable {
    /// `eligible`, `ineligible` or `unknown` (not an auto-renewable of this app's catalog) per product.
    public var eligibility: [String: IntroEligibility]

    public init(eligibility: [String: IntroEligibility]) {
        self.eligibility = eligibility
    }
}

/// The body of every error answer of the server (and of the simulator):
/// `{"error": "<code>", "message": "<sentence>"}`.
public struct ErrorBody: Codable, Equatable, Sendable {
    /// A stable machine code (`invalidSignature`, `wrongBundleId`, …).
    public var error: String
    /// What went wrong, with the offending value, for a human.
    public var message: String

    public init(error: String, message: String) {
        self.error = error
        self.message = message
    }
}
