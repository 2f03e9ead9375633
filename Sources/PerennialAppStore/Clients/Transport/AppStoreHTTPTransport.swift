/// The seam between Apple's protocols and the network.
///
/// The verifyReceipt and App Store Server API clients only ever call ``send(_:)``; production uses
/// ``AsyncHTTPClientTransport``, tests use a scripted in-memory transport. A thrown error means the
/// exchange did not complete (connection refused, timeout, TLS failure) and is treated as transient;
/// any HTTP answer, even a 500, is returned as a response.
public protocol AppStoreHTTPTransport: Sendable {
    /// Performs one HTTP exchange.
    func send(_ request: AppStoreHTTPRequest) async throws -> AppStoreHTTPResponse
}
