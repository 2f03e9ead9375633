import Foundation
import PerennialServer
import Testing

@Suite struct TokenBucketTests {
    @Test func burstThenRefillAtTheRate() {
        let start = Date(timeIntervalSince1970: 0)
        var bucket = TokenBucket(capacity: 3, ratePerSecond: 2, start: start)
        #expect(bucket.take(at: start) == nil)
        #expect(bucket.take(at: start) == nil)
        #expect(bucket.take(at: start) == nil)
        #expect(bucket.take(at: start) == start.addingTimeInterval(0.5))
        #expect(bucket.take(at: start.addingTimeInterval(0.5)) == nil)
        #expect(bucket.take(at: start.addingTimeInterval(0.5)) == start.addingTimeInterval(1.0))
        // A long pause refills only up to the capacity.
        let later = start.addingTimeInterval(100)
        for _ in 0..<3 { #expect(bucket.take(at: later) == nil) }
        #expect(bucket.take(at: later) != nil)
    }
}
