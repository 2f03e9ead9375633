import Foundation
import Testing
@testable import PerennialClient

/// Errors an app can switch on and show, and log lines that say what happened without a secret.
@Suite struct DiagnosticsTests {
    /// The raw codes are the contract an app's analytics rely on: each error lands on its code.
    @Test(arguments: [
        (PerennialError.server(.unreachable("timed out")), "server_unreachable"),
        (.server(.http(status: 500, code: nil, message: nil)), "server_rejected"),
        (.server(.unverifiedAnswer("bad signature")), "answer_unverified"),
        (.store(.userCancelled), "user_cancelled"),
        (.store(.purchaseFailed(UnderlyingError(ServerError.decoding("x")))), "purchase_failed"),
        (.store(.restoreFailed(UnderlyingError(ServerError.decoding("x")))), "restore_failed"),
        (.store(.simulator(.unreachable("x"))), "store_failed"),
        (.store(.unsupported("tvOS")), "unsupported"),
        (.store(.refundRequestFailed(UnderlyingError(ServerError.decoding("x")))), "refund_request_failed"),
        (.notYetDelivered(transactionID: "1", reason: .unreachable("x")), "paid_not_yet_delivered"),
        (.journalUnavailable("disk full"), "journal_unavailable"),
        (.appAccountTokenUnavailable(.unreachable("x")), "app_account_token_unavailable"),
        (.userSwitchRefused("anonymous"), "user_switch_refused"),
    ])
    func everyErrorHasItsStableCode(error: PerennialError, code: String) {
        #expect(error.code.rawValue == code)
        #expect(error.isCancelled == (code == "user_cancelled"))
    }

    @Test func theUserReadsASentenceAndTheLogReadsTheDetail() {
        let error = PerennialError.notYetDelivered(transactionID: "42", reason: .http(status: 503, code: nil, message: nil))
        #expect(error.localizedDescription == "Your purchase is being processed.")
        #expect(error.recoverySuggestion?.contains("do not need to buy again") == true)
        #expect(error.description.contains("42"))
        #expect(error.underlyingError as? ServerError == .http(status: 503, code: nil, message: nil))
    }

    /// A purchase whose upload fails, then succeeds: the lines name the transaction and the
    /// error's code, at the levels asked for, and never carry the signed transaction, the user's
    /// token or the app's key.
    @Test func logLinesNameTransactionsAndCodesButNoSecret() async throws {
        let app = SDKFixture()
        let lines = LogLines()
        var configuration = app.configuration()
        configuration.logLevel = .info
        configuration.logHandler = { lines.append($0) }
        configuration.userToken = { _ in "user-token-secret" }
        let sdk = app.launch(configuration)
        await app.server.setUp(false)
        let failed = await sdk.purchase(StoreProduct(id: "pro.monthly"))
        guard case .failed(let error) = failed else { Issue.record("\(failed)"); return }
        #expect(error.code == .paidNotYetDelivered)
        await app.server.setUp(true)
        #expect(await sdk.syncPendingTransactions() == 0)

        let entries = lines.all
        #expect(entries.contains(PerennialLogEntry(level: .info, category: "purchase", message: "purchase of pro.monthly started")))
        #expect(entries.contains(PerennialLogEntry(
            level: .warning, category: "upload", message: "transaction T1 not delivered: server_unreachable; kept for retry")))
        #expect(entries.contains(PerennialLogEntry(level: .info, category: "upload", message: "transaction T1 delivered")))
        #expect(!entries.contains { $0.level == .debug })
        guard case .signedTransaction(let jws) = try #require(await app.store.entitlements.first?.evidence) else { Issue.record("no JWS"); return }
        for entry in entries {
            #expect(!entry.message.contains(jws) && !entry.message.contains("user-token-secret") && !entry.message.contains("pk_test"))
        }
    }

    @Test func offSilencesTheSDK() async {
        let app = SDKFixture()
        let lines = LogLines()
        var configuration = app.configuration()
        configuration.logLevel = .off
        configuration.logHandler = { lines.append($0) }
        await app.server.setUp(false)
        _ = await app.launch(configuration).purchase(StoreProduct(id: "pro.monthly"))
        #expect(lines.all.isEmpty)
    }
}

/// Collects log entries from any thread.
final class LogLines: @unchecked Sendable {
    // Invariant making `@unchecked Sendable` sound: `entries` is only touched under `lock`.
    private let lock = NSLock()
    private var entries: [PerennialLogEntry] = []

    func append(_ entry: PerennialLogEntry) { lock.withLock { entries.append(entry) } }
    var all: [PerennialLogEntry] { lock.withLock { entries } }
}
