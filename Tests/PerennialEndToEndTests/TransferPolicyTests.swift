import Foundation
import PerennialLiveHarness
import PerennialStorage
import Testing

/// One Apple ID's purchase presented by a second app user, under each transfer policy.
@Suite("End to end: transfer policy")
struct TransferPolicyLiveTests {
    @Test(arguments: [TransferPolicy.transfer, .keepWithOriginalOwner])
    func aSecondUserPresentingThePurchase(_ policy: TransferPolicy) async throws {
        let system = try await LiveSystem.start(transferPolicy: policy)
        do {
            let http = LiveHTTP(system: system)
            try await http.account("alice")
            let bought = try await http.buy(LiveCatalog.premiumMonthly, account: "alice")
            let jws = try #require(bought.json["signedTransaction"] as? String)
            let first = try await http.postTransaction(jws, user: "first")
            #expect(first.isActive("premium"))

            let second = try await http.postTransaction(jws, user: "second")
            let firstAfter = try await http.subscriber("first")
            #expect(second.status == 200, "\(second.text)")
            switch policy {
            case .transfer:
                #expect((second.json["transfer"] as? [String: Any])?["previousOwner"] as? String == "first")
                #expect(second.isActive("premium"))
                #expect(!firstAfter.isActive("premium"))
            default:
                #expect(second.json["transfer"] == nil)
                #expect(!second.isActive("premium"))
                #expect(firstAfter.isActive("premium"))
            }
        } catch {
            await system.stop()
            throw error
        }
        await system.stop()
    }
}
