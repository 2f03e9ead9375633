import Foundation
import PerennialCore
import PerennialPostgres
import PerennialStorage
import Testing

/// The storage-dependent server behaviour again on PostgreSQL, when `PERENNIAL_POSTGRES_URL` names
/// a server (skipped otherwise): the transfer decision and its audit go through the same routes, and
/// an experiment's results count the simulated population exactly, in both orders.
@Suite(.enabled(if: PostgresServerDatabase.isAvailable))
struct PostgresServerTests {
    @Test(arguments: TransferPolicy.allCases)
    func aSecondUserPresentingTheSamePurchaseOnPostgres(_ policy: TransferPolicy) async throws {
        try await PostgresServerDatabase.with { storage in
            try await TransferPolicyTests.secondPresenter(policy: policy, server: try await ServerHarness(storage: storage, policy: policy))
            #expect(try await storage.evidenceCount() == 2)
        }
    }

    @Test func theAnalyticsScenarioReportsTheHandDerivedFiguresOnPostgres() async throws {
        try await PostgresServerDatabase.with { inOrder in
            try await PostgresServerDatabase.with { messy in
                try await AnalyticsScenarioTests.figuresMatchTheHandDerivedOnes(inOrderOn: inOrder, messyOn: messy)
            }
        }
    }

    @Test func anAppTransactionIsKeptAndShownOnPostgres() async throws {
        try await PostgresServerDatabase.with { storage in
            try await AppTransactionTests.earliestPurchaseIsHonoured(server: try await ServerHarness(storage: storage))
            #expect(try await storage.appTransaction(of: "alice", appBundleID: StoreWorld.bundleID)?.originalApplicationVersion == "1.0")
        }
    }
}
