public import PerennialAppStore

/// The transport of apps resolved by a command that must not call Apple (the offline check, a
/// privacy request): any request fails at once instead of leaving the machine.
public struct OfflineTransport: AppStoreHTTPTransport {
    public struct Offline: Error, CustomStringConvertible {
        public var description: String { "this command does not call Apple" }
    }

    public init() {}

    public func send(_ request: AppStoreHTTPRequest) async throws -> AppStoreHTTPResponse { throw Offline() }
}
