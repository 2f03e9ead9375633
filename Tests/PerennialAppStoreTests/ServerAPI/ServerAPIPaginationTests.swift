import Foundation
import PerennialAppStore
import Testing

@Suite("App Store Server API pagination")
struct ServerAPIPaginationTests {
    struct HistoryPage: Decodable, Equatable {
        let revision: String
        let hasMore: Bool
        let signedTransactions: [String]
    }

    static func historyPage(_ revision: String, hasMore: Bool, _ transactions: [String]) -> ScriptedTransport.Reply {
        let list = transactions.map { "\"\($0)\"" }.joined(separator: ",")
        return .text(#"{"revision":"\#(revision)","hasMore":\#(hasMore),"bundleId":"b","signedTransactions":[\#(list)]}"#)
    }

    @Test func historyFollowsRevisionsAcrossThreePages() async throws {
        let context = ServerAPITestContext([
            Self.historyPage("r1", hasMore: true, ["t1", "t2"]),
            Self.historyPage("r2", hasMore: true, ["t3"]),
            Self.historyPage("r3", hasMore: false, ["t4"]),
        ])
        let endpoint = ServerAPIEndpoint.transactionHistory(
            transactionID: "1000", query: TransactionHistoryRequest(productTypes: [.autoRenewable], sort: .ascending))
        let pages = try await context.client.allPages(endpoint, as: HistoryPage.self)
        #expect(pages.flatMap(\.signedTransactions) == ["t1", "t2", "t3", "t4"])

        let queries = await context.transport.requests.map { $0.url.query ?? "" }
        #expect(queries == [
            "productType=AUTO_RENEWABLE&sort=ASCENDING",
            "productType=AUTO_RENEWABLE&sort=ASCENDING&revision=r1",
            "productType=AUTO_RENEWABLE&sort=ASCENDING&revision=r2",
        ])
    }

    @Test func notificationHistoryFollowsPaginationTokensAndResendsTheBody() async throws {
        let body = ServerAPIRequestBody(json: Data(#"{"startDate":1,"endDate":2}"#.utf8))
        let context = ServerAPITestContext([
            .text(#"{"paginationToken":"p1","hasMore":true,"notificationHistory":[]}"#),
            .text(#"{"paginationToken":"p2","hasMore":true,"notificationHistory":[]}"#),
            .text(#"{"hasMore":false,"notificationHistory":[]}"#),
        ])
        let pages = try await context.client.allPages(.notificationHistory(body: body))
        #expect(pages.count == 3)
        let requests = await context.transport.requests
        #expect(requests.map { $0.url.query } == [nil, "paginationToken=p1", "paginationToken=p2"])
        #expect(requests.allSatisfy { $0.method == .post && $0.body == body.json })
    }

    @Test func refundHistoryStopsWhenHasMoreIsFalse() async throws {
        let context = ServerAPITestContext([Self.historyPage("r1", hasMore: false, ["t1"])])
        let pages = try await context.client.allPages(.refundHistory(transactionID: "1"))
        #expect(pages.count == 1)
    }

    @Test func repeatedCursorEndsTheWalk() async throws {
        let context = ServerAPITestContext([
            Self.historyPage("r1", hasMore: true, []), Self.historyPage("r1", hasMore: true, []),
        ])
        await #expect {
            try await context.client.allPages(.refundHistory(transactionID: "1"))
        } throws: { error in
            guard case .decoding(let reason) = error as? AppStoreServerAPIError else { return false }
            return reason.contains("repeats")
        }
        #expect(await context.transport.requests.count == 2)
    }

    @Test func hasMoreWithoutCursorIsADecodingError() async throws {
        let context = ServerAPITestContext([.text(#"{"hasMore":true}"#)])
        await #expect {
            try await context.client.allPages(.transactionHistory(transactionID: "1"))
        } throws: { error in
            guard case .decoding = error as? AppStoreServerAPIError else { return false }
            return true
        }
    }

    @Test func nonPaginatedEndpointYieldsOnePage() async throws {
        let context = ServerAPITestContext([.text(#"{"hasMore":true,"revision":"x"}"#)])
        #expect(try await context.client.allPages(.transactionInfo(transactionID: "1")).count == 1)
        #expect(await context.transport.requests.count == 1)
    }
}
