/// Where a simulated subscription stands, with the five values of Apple's subscription `status`
/// (raw values are Apple's integers, so the Server API answer copies them).
public enum SimulatedSubscriptionStatus: Int, Hashable, Sendable, Codable {
    case active = 1
    case expired = 2
    /// A renewal charge failed and the grace period, if any, is over: no access, Apple retries.
    case billingRetry = 3
    /// A renewal charge failed but access continues until the grace period ends.
    case gracePeriod = 4
    case revoked = 5
}
