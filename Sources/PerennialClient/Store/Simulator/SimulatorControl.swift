public import Foundation
#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif

/// The simulator's control side (its `/simulator/v1` API) that tests, apps' CI and the example
/// use to play the parts a device cannot: create sandbox accounts, move the store's clock so renewals
/// happen, approve or decline Ask to Buy.
public struct SimulatorControl: Sendable {
    private let http: JSONHTTPClient

    /// Control of the simulator at `baseURL` (its root).
    public init(baseURL: URL, session: URLSession = .shared) {
        self.http = JSONHTTPClient(baseURL: baseURL, session: session)
    }

    /// Creates a sandbox account. `renewal` is `renew` or `failBilling`.
    public func createAccount(id: String, storefront: String = "USA", renewal: String = "renew") async throws(ServerError) {
        _ = try await http.send(
            "POST", ["simulator", "v1", "accounts"], body: SimulatorWire.AccountRequest(id: id, storefront: storefront, renewal: renewal))
    }

    /// The store's current time.
    public func now() async throws(ServerError) -> Date {
        try await http.send("GET", ["simulator", "v1", "clock"], body: NoBody?.none, as: SimulatorWire.Clock.self).now
    }

    /// Moves the store's clock forward, performing every renewal and expiry that falls due.
    @discardableResult
    public func advanceClock(by seconds: TimeInterval) async throws(ServerError) -> Date {
        try await http.send(
            "POST", ["simulator", "v1", "clock", "advance"], body: SimulatorWire.AdvanceBySeconds(seconds: seconds),
            as: SimulatorWire.Clock.self
        ).now
    }

    /// Moves the store's clock to an instant.
    @discardableResult
    public func advanceClock(to instant: Date) async throws(ServerError) -> Date {
        try await http.send(
            "POST", ["simulator", "v1", "clock", "advance"], body: SimulatorWire.AdvanceTo(to: instant), as: SimulatorWire.Clock.self
        ).now
    }

    /// A parent approves an Ask to Buy purchase: it completes and reaches the device as an update.
    public func approve(pendingID: String) async throws(ServerError) {
        _ = try await http.send("POST", ["simulator", "v1", "pending", pendingID, "approve"], body: NoBody?.none)
    }

    /// A parent declines an Ask to Buy purchase.
    public func decline(pendingID: String) async throws(ServerError) {
        _ = try await http.send("POST", ["simulator", "v1", "pending", pendingID, "decline"], body: NoBody?.none)
    }
}
