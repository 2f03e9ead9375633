import Foundation

/// A bounded, thread-safe map from a JWS header segment to its verified chain.
///
/// Apple signs many payloads with the same chain, so after the first full X.509 validation each
/// later payload costs one ECDSA verification. Eviction is least-recently-used: a lookup stamps the
/// entry, an insertion into a full cache drops the oldest stamp (a linear scan, paid only on the cold
/// path). The cache never decides validity by itself: every hit is checked against the entry's
/// validity window at the caller's validation time.
///
/// An `NSLock` guards the state because `Synchronization.Mutex` needs macOS 15 and the package
/// supports macOS 14.
final class ChainCache: @unchecked Sendable {
    /// A header segment as a key: equal only when every byte is (so no two chains can ever share
    /// an entry), but hashed over its first kilobyte only, the leaf certificate that tells Apple's
    /// chains apart. A digest of the whole header (kilobytes of `x5c`) cost more than the lookup.
    struct Key: Hashable {
        let header: [UInt8]

        init(_ header: ArraySlice<UInt8>) {
            self.header = Array(header)
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(header.count)
            header.prefix(1024).withUnsafeBytes { hasher.combine(bytes: $0) }
        }
    }

    private struct Slot {
        var chain: VerifiedChain
        var lastUse: UInt64
    }

    private let lock = NSLock()
    private let capacity: Int
    private var slots: [Key: Slot] = [:]
    private var clock: UInt64 = 0
    private var hitCount = 0

    /// A cache holding at most `capacity` chains; zero or less disables caching.
    init(capacity: Int) {
        self.capacity = max(0, capacity)
        slots.reserveCapacity(self.capacity)
    }

    /// The chain verified under `key`, counting a hit when there is one.
    func chain(for key: Key) -> VerifiedChain? {
        lock.withLock {
            guard var slot = slots[key] else { return nil }
            clock &+= 1
            slot.lastUse = clock
            slots[key] = slot
            hitCount += 1
            return slot.chain
        }
    }

    /// Remembers a verified chain, evicting the least recently used one when full.
    func insert(_ chain: VerifiedChain, for key: Key) {
        guard capacity > 0 else { return }
        lock.withLock {
            clock &+= 1
            if slots[key] == nil, slots.count >= capacity,
                let oldest = slots.min(by: { $0.value.lastUse < $1.value.lastUse })?.key
            {
                slots.removeValue(forKey: oldest)
            }
            slots[key] = Slot(chain: chain, lastUse: clock)
        }
    }

    /// How many chains are cached.
    var count: Int { lock.withLock { slots.count } }

    /// How many lookups found their chain since the cache was created.
    var hits: Int { lock.withLock { hitCount } }
}
