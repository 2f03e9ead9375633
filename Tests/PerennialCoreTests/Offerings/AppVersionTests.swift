import Foundation
import PerennialCore
import Testing

@Suite struct AppVersionTests {
    @Test func numbersAreComparedOneByOneNotAsText() throws {
        #expect(try #require(AppVersion("1.10")) > #require(AppVersion("1.9")))
        #expect(try #require(AppVersion("2.0.1")) > #require(AppVersion("2")))
        #expect(try #require(AppVersion("10.0")) > #require(AppVersion("9.99.99")))
    }

    @Test func missingTrailingNumbersAreZero() throws {
        let two = try #require(AppVersion("2"))
        let twoZeroZero = try #require(AppVersion("2.0.0"))
        #expect(two == twoZeroZero)
        #expect(Set([two, twoZeroZero]).count == 1)
        #expect(!(two < twoZeroZero) && !(twoZeroZero < two))
        #expect(twoZeroZero.description == "2.0.0")
    }

    @Test(arguments: ["", "1..2", ".1", "1.", "v1.2", "1.2-beta", "1.2 ", " 1.2", "-1", "1.2.3.4.5", "１.２", "1234567890"])
    func whatIsNotDottedNumbersIsRefused(_ text: String) {
        #expect(AppVersion(text) == nil)
    }

    @Test func itTravelsAsItsText() throws {
        let encoded = try JSONEncoder().encode(["v": try #require(AppVersion("3.1.4"))])
        #expect(String(decoding: encoded, as: UTF8.self) == #"{"v":"3.1.4"}"#)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([String: AppVersion].self, from: Data(#"{"v":"3.x"}"#.utf8)) }
    }
}

