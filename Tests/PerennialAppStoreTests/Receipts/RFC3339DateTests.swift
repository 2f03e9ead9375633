import Foundation
import PerennialAppStore
import Testing

@Suite("RFC 3339 receipt dates")
struct RFC3339DateTests {
    @Test(arguments: [
        ("2023-10-19T01:45:36Z", 1_697_679_936.0),
        ("2023-10-19T01:45:36.250Z", 1_697_679_936.25),
        ("2023-10-19T03:45:36+02:00", 1_697_679_936.0),
        ("2024-02-29T00:00:00Z", 1_709_164_800.0),
        ("1970-01-01T00:00:00Z", 0.0),
        ("4001-01-01T00:00:00Z", 64_092_211_200.0),
    ])
    func parses(text: String, seconds: Double) {
        #expect(RFC3339Date.parse(text) == Date(timeIntervalSince1970: seconds))
    }

    @Test(arguments: ["", "2023-10-19", "2023-13-01T00:00:00Z", "2023-02-29T00:00:00Z", "2023-10-19T01:45:36", "2023-10-19T01:45:36.Z", "2023-10-19T01:45:36Zjunk"])
    func rejects(text: String) {
        #expect(RFC3339Date.parse(text) == nil)
    }

    @Test(arguments: [0.0, 1_697_679_936.0, 1_697_679_936.125, -86_400.5, 64_092_211_200.0])
    func formatsWhatItParses(seconds: Double) {
        let date = Date(timeIntervalSince1970: seconds)
        #expect(RFC3339Date.parse(RFC3339Date.format(date)) == date)
    }

    /// Apple's milliseconds come back as they were sent: 1795740890073 ms is 1795740890.0729999 s
    /// as a Double, which was printed .072.
    @Test(arguments: [Int64(1_795_740_890_073), 1_795_740_890_999, 1_697_679_936_001, -86_400_500, 0])
    func millisecondsAreKept(milliseconds: Int64) {
        let text = RFC3339Date.formatWithMilliseconds(Date(timeIntervalSince1970: Double(milliseconds) / 1000))
        let parsed = RFC3339Date.parse(text)
        #expect(parsed.map { Int64(($0.timeIntervalSince1970 * 1000).rounded()) } == milliseconds, "\(text)")
        #expect(text.hasSuffix(String(format: ".%03dZ", Int(((milliseconds % 1000) + 1000) % 1000))), "\(text)")
    }

    @Test func formatsLikeReceipts() {
        #expect(RFC3339Date.format(Date(timeIntervalSince1970: 1_697_679_936)) == "2023-10-19T01:45:36Z")
        #expect(RFC3339Date.format(Date(timeIntervalSince1970: 1_697_679_936.05)) == "2023-10-19T01:45:36.050Z")
    }
}
