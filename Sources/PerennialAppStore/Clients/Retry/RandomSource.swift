import Foundation
import PerennialCore

/// A random number generator that concurrent requests of one client can share.
///
/// Each ``RetryStateMachine`` draws its jitter from the generator it is handed; a client serves
/// many requests at once, so its generator lives behind a lock. Seeded, it makes a client's whole
/// sequence of waits reproducible; unseeded, it uses the system generator.
public final class RandomSource: RandomNumberGenerator, @unchecked Sendable {
    private let lock = NSLock()
    private var generator: any RandomNumberGenerator

    /// A source backed by the system's generator.
    public static func system() -> RandomSource {
        RandomSource(generator: SystemRandomNumberGenerator())
    }

    /// A deterministic source (see ``SeededRandomNumberGenerator``).
    public static func seeded(_ seed: UInt64) -> RandomSource {
        RandomSource(generator: SeededRandomNumberGenerator(seed: seed))
    }

    private init(generator: any RandomNumberGenerator) {
        self.generator = generator
    }

    /// The next 64 random bits; safe to call from any task.
    public func next() -> UInt64 {
        lock.withLock { generator.next() }
    }
}
