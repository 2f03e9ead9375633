import PerennialAppStore
import PerennialCore
import Testing

@Suite("verifyReceipt status")
struct VerifyReceiptStatusTests {
    @Test("retryability follows Apple's status table", arguments: [
        (0, false, false), (21000, false, false), (21002, false, true), (21003, false, false),
        (21004, false, false), (21005, false, true), (21006, false, false), (21007, false, false),
        (21008, false, false), (21009, false, true), (21010, false, false),
        (21100, true, true), (21104, false, false), (21199, true, true), (21200, true, false),
    ])
    func retryable(code: Int, flag: Bool, expected: Bool) {
        #expect(VerifyReceiptStatus(rawValue: code).isRetryable(retryableFlag: flag) == expected)
    }

    @Test("only 0 and 21006 carry a receipt", arguments: [0, 21006, 21002, 21007, 21199])
    func carriesReceipt(code: Int) {
        #expect(VerifyReceiptStatus(rawValue: code).carriesReceipt == [0, 21006].contains(code))
    }

    @Test("redirects")
    func redirects() {
        #expect(VerifyReceiptStatus.sandboxReceiptOnProduction.redirectEnvironment == .sandbox)
        #expect(VerifyReceiptStatus.productionReceiptOnSandbox.redirectEnvironment == .production)
        #expect(VerifyReceiptStatus.valid.redirectEnvironment == nil)
    }

    @Test("meanings name unknown codes instead of guessing")
    func meanings() {
        #expect(VerifyReceiptStatus(rawValue: 21004).meaning.contains("shared secret"))
        #expect(VerifyReceiptStatus(rawValue: 21150).meaning == "internal data access error 21150")
        #expect(VerifyReceiptStatus(rawValue: 30000).meaning == "unknown status 30000")
    }
}
