/// Why a live system could not start.
public enum LiveSystemError: Error, CustomStringConvertible {
    /// The kernel gave no loopback port.
    case noFreePort
    /// The catalog given to ``LiveSystem/start(transferPolicy:faults:userTokens:catalogJSON:billingGracePeriodDays:)`` has no app.
    case catalogNamesNoApp
    /// The simulator's HTTP server stopped before it listened.
    case simulatorDidNotStart
    /// The server did not answer `/health/live` in time; `port` is where it should listen.
    case serverDidNotStart(port: Int)

    public var description: String {
        switch self {
        case .noFreePort: "no free loopback port"
        case .catalogNamesNoApp: "the catalog names no app"
        case .simulatorDidNotStart: "the simulator's HTTP server stopped before listening"
        case .serverDidNotStart(let port): "the Perennial server did not answer on port \(port)"
        }
    }
}
