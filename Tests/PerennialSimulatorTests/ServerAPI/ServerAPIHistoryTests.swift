import Foundation
import PerennialAppStore
import PerennialCore
import PerennialSimulator
import Testing

/// Get Transaction History v2 and Get Refund History v2, with revision pagination.
@Suite struct ServerAPIHistoryTests {
    /// 26 subscription transactions and a lifetime purchase for the fixture tester, one purchase for bob.
    static func busyStore() async throws -> (ServerAPIHarness, pro: String, all: [String]) {
        let harness = try ServerAPIHarness(renewalLimit: 40)
        let pro = try await harness.buy("pro.monthly")
        _ = try await harness.buy("lifetime")
        _ = try await harness.buy("basic.monthly", account: ServerAPIHarness.bob)
        try await harness.advance(toSecond: 25 * 300)
        let state = await harness.backend.currentState()
        let all = state.lifecycles.filter { $0.account == ServerAPIHarness.alice }.flatMap(\.transactions).map(\.transactionID)
        return (harness, pro, all)
    }

    @Test func paginationWalksEveryTransactionExactlyOnce() async throws {
        let (harness, pro, all) = try await Self.busyStore()
        #expect(all.count == 27)
        let pages = try await harness.client().allPages(.transactionHistory(transactionID: pro), as: HistoryResponse.self)
        #expect(pages.count == 2)
        #expect(pages.map { $0.signedTransactions?.count ?? 0 } == [20, 7])
        #expect(pages.map(\.hasMore) == [true, false])
        let verifier = try ServerAPIHarness.verifier()
        var seen: [String] = []
        for signed in pages.flatMap({ $0.signedTransactions ?? [] }) {
            seen.append(try #require(try await verifier.verifyTransaction(signed).transactionId))
        }
        #expect(seen.count == all.count)
        #expect(Set(seen) == Set(all))
        #expect(pages.allSatisfy { $0.bundleId == "com.example.app" && $0.environment == .sandbox && $0.revision != nil })
    }

    @Test func descendingOrderReversesTheWalk() async throws {
        let (harness, pro, _) = try await Self.busyStore()
        let client = await harness.client()
        let verifier = try ServerAPIHarness.verifier()
        var orders: [[String]] = []
        for sort in [TransactionHistoryRequest.Order.ascending, .descending] {
            let pages = try await client.allPages(
                .transactionHistory(transactionID: pro, query: TransactionHistoryRequest(sort: sort)), as: HistoryResponse.self)
            var ids: [String] = []
            for signed in pages.flatMap({ $0.signedTransactions ?? [] }) {
                ids.append(try #require(try await verifier.verifyTransaction(signed).transactionId))
            }
            orders.append(ids)
        }
        #expect(orders[0].count == 27)
        #expect(orders[1] == orders[0].reversed())
    }

    @Test func filtersSelectTransactions() async throws {
        let (harness, pro, _) = try await Self.busyStore()
        let client = await harness.client()
        let verifier = try ServerAPIHarness.verifier()
        func ids(_ query: TransactionHistoryRequest) async throws -> [String] {
            var ids: [String] = []
            for page in try await client.allPages(.transactionHistory(transactionID: pro, query: query), as: HistoryResponse.self) {
                for signed in page.signedTransactions ?? [] {
                    ids.append(try #require(try await verifier.verifyTransaction(signed).transactionId))
                }
            }
            return ids
        }
        #expect(try await ids(TransactionHistoryRequest(productIds: ["lifetime"])).count == 1)
        #expect(try await ids(TransactionHistoryRequest(productTypes: [.autoRenewable])).count == 26)
        #expect(try await ids(TransactionHistoryRequest(productTypes: [.nonConsumable, .autoRenewable])).count == 27)
        // Periods start every 300 s: [300, 900) holds the renewals at 300 and 600.
        #expect(try await ids(TransactionHistoryRequest(startDate: SimulatorFixture.at(300), endDate: SimulatorFixture.at(900))).count == 2)

        try await harness.perform(.refund(transactionID: pro, amount: .full, reason: .other))
        let revoked = try await ids(TransactionHistoryRequest(revoked: true))
        #expect(revoked == [pro])
        #expect(try await ids(TransactionHistoryRequest(revoked: false)).count == 26)
    }

    @Test(arguments: [
        ("sort", "UP", 4_000_021), ("productType", "SUBSCRIPTION", 4_000_022), ("revision", "!!", 4_000_005),
        ("revoked", "yes", 4_000_030), ("startDate", "yesterday", 4_000_015), ("endDate", "-5", 4_000_016),
        ("inAppOwnershipType", "SHARED", 4_000_026),
    ])
    func invalidQueriesGetApplesCodes(name: String, value: String, code: Int) async throws {
        let harness = try ServerAPIHarness()
        let pro = try await harness.buy("pro.monthly")
        let response = try await harness.call("GET", "/inApps/v2/history/\(pro)", query: [URLQueryItem(name: name, value: value)])
        #expect(response.status == 400)
        #expect(try response.errorCode() == code)
    }

    @Test func startAfterEndIsRefused() async throws {
        let harness = try ServerAPIHarness()
        let pro = try await harness.buy("pro.monthly")
        let response = try await harness.call(
            "GET", "/inApps/v2/history/\(pro)", query: [.init(name: "startDate", value: "2000"), .init(name: "endDate", value: "1000")])
        #expect(try response.errorCode() == 4_000_013)
    }

    @Test func revisionOfTheLastPageSeesLaterTransactions() async throws {
        let harness = try ServerAPIHarness()
        let pro = try await harness.buy("pro.monthly")
        let first = try await harness.call("GET", "/inApps/v2/history/\(pro)").decode(HistoryResponse.self)
        #expect(first.signedTransactions?.count == 1)
        #expect(first.hasMore == false)
        try await harness.advance(toSecond: 300)
        let next = try await harness.call("GET", "/inApps/v2/history/\(pro)", query: [.init(name: "revision", value: first.revision)])
            .decode(HistoryResponse.self)
        let signed = try #require(next.signedTransactions?.only)
        #expect(try await ServerAPIHarness.verifier().verifyTransaction(signed).transactionReason == .renewal)
    }

    @Test func refundHistoryListsRefundsInRevocationOrder() async throws {
        let harness = try ServerAPIHarness(renewalLimit: 40)
        let pro = try await harness.buy("pro.monthly")
        let lifetime = try await harness.buy("lifetime")
        try await harness.advance(toSecond: 23 * 300 + 10)
        let transactions = try #require(await harness.backend.currentState().lifecycle(originalTransactionID: pro)?.transactions)
        #expect(transactions.count == 24)
        // Refund 22 older periods one by one (10 s apart), then the lifetime purchase.
        var refunded: [String] = []
        for (offset, transaction) in transactions.prefix(22).reversed().enumerated() {
            try await harness.advance(toSecond: 23 * 300 + 10 + TimeInterval(offset + 1) * 10)
            try await harness.perform(.refund(transactionID: transaction.transactionID, amount: .full, reason: .other))
            refunded.append(transaction.transactionID)
        }
        try await harness.perform(.refund(transactionID: lifetime, amount: .full, reason: .developerIssue))
        refunded.append(lifetime)

        let pages = try await harness.client().allPages(.refundHistory(transactionID: pro), as: RefundHistoryResponse.self)
        #expect(pages.map(\.hasMore) == [true, false])
        let verifier = try ServerAPIHarness.verifier()
        var seen: [String] = []
        for signed in pages.flatMap({ $0.signedTransactions ?? [] }) {
            seen.append(try #require(try await verifier.verifyTransaction(signed).transactionId))
        }
        #expect(seen == refunded)
    }

    @Test func familyRevocationIsNotARefund() async throws {
        let harness = try ServerAPIHarness()
        let pro = try await harness.buy("pro.monthly")
        let shared = try await harness.perform(.familyShare(originalTransactionID: pro, member: ServerAPIHarness.bob))
        try await harness.perform(.revokeFamily(originalTransactionID: shared))
        let answer = try await harness.call("GET", "/inApps/v2/refund/lookup/\(shared)").decode(RefundHistoryResponse.self)
        #expect(answer.signedTransactions?.isEmpty == true)
        #expect(answer.hasMore == false)
    }
}
