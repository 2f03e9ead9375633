/// How a sandbox account's renewal charges turn out.
///
/// Random failures draw from the generator owned by ``SimulatorState`` — never from the system —
/// so a scenario replayed with the same seed fails the same renewals.
public enum RenewalBehavior: Hashable, Sendable, Codable {
    /// Every renewal charge succeeds.
    case renew
    /// Every renewal charge fails (a tester with "Allow Purchases & Renewals" turned off).
    case failBilling
    /// Each renewal charge fails with this probability, between 0 and 1.
    case failWithProbability(Double)

    /// A probability outside 0...1 (or NaN), which no draw could honour; nil when valid.
    var invalidProbability: Double? {
        guard case .failWithProbability(let probability) = self, !(0...1).contains(probability) else { return nil }
        return probability
    }

    /// Decides one renewal charge. Draws from `generator` only for a probabilistic account, so
    /// adding a well-behaved account to a scenario does not shift another account's draws.
    func chargeSucceeds(using generator: inout some RandomNumberGenerator) -> Bool {
        switch self {
        case .renew:
            return true
        case .failBilling:
            return false
        case .failWithProbability(let probability):
            return Double.random(in: 0..<1, using: &generator) >= probability
        }
    }
}
