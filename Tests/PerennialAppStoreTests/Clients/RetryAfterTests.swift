import Foundation
import PerennialAppStore
import Testing

@Suite("Retry-After")
struct RetryAfterTests {
    static let now = Date(timeIntervalSince1970: 784_111_777)  // Sun, 06 Nov 1994 08:49:37 GMT

    @Test func deltaSeconds() {
        #expect(RetryAfter.delay(from: "120", now: Self.now) == .seconds(120))
        #expect(RetryAfter.delay(from: " 0 ", now: Self.now) == .zero)
    }

    @Test func httpDateIsRelativeToNow() {
        #expect(RetryAfter.delay(from: "Sun, 06 Nov 1994 08:50:07 GMT", now: Self.now) == .seconds(30))
        #expect(RetryAfter.delay(from: "Sun, 06 Nov 1994 08:00:00 GMT", now: Self.now) == .zero)
    }

    @Test(arguments: ["", "soon", "-5", "1.5"])
    func unreadableValuesAreIgnored(value: String) {
        #expect(RetryAfter.delay(from: value, now: Self.now) == nil)
    }
}
