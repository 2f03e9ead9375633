import Foundation
import PerennialCore
@testable import PerennialPostgres
import PerennialStorage
import PerennialStorageContract
import PostgresNIO
import Testing

/// ``PostgresPlanWrites`` carries a whole plan in arrays, one per column, with each nullable
/// column as values beside presence flags: every column must read back as the plan held it,
/// NULLs included, and rows that are ordered by id (events, audit) in the plan's order.
@Suite(.enabled(if: PostgresTestDatabase.isAvailable, "set PERENNIAL_POSTGRES_URL to run"))
struct PostgresPlanWritesTests {
    @Test func everyColumnOfAPlanReadsBackAsPlanned() async throws {
        try await PostgresTestDatabase.with { database in
            let storage = try await database.makeStorage()
            try await storage.migrate()
            let now = ContractFixture.day(2)
            var unpriced = ContractFixture.transaction("2", original: "2", purchased: 1)
            unpriced.price = nil
            let records = EvidenceRecords(
                transactions: [ContractFixture.transaction("1", original: "1", purchased: 0), unpriced],
                renewalInfos: [ContractFixture.renewalInfo(original: "1", willRenew: false, signed: 1)])
            let evidence = ContractFixture.evidence("receipt-1", by: "alice", kind: .receipt, records)
            var plan = try ContractFixture.applier().plan(for: evidence, snapshot: StorageSnapshot(), now: now)
            plan.bindings.append(WritePlan.Binding(originalTransactionID: "3", appUserID: "bob"))
            plan.checks.append(WritePlan.Check(originalTransactionID: "3", dueAt: nil, sweptUntil: nil))
            var anonymous = try #require(plan.audit.first)
            anonymous.appUserID = nil
            plan.audit.append(anonymous)
            #expect(plan.outbox.count >= 2, "the plan should order several events")

            let evidenceID = try await storage.transaction("write a plan") { rows in
                let id = try #require(try await rows.all(PostgresStatements.InsertEvidence(evidence: evidence)).first)
                try await rows.write(plan, evidenceID: id, now: now)
                return id
            }

            let client = storage.client
            let transactions = try await rows(
                client, "SELECT transaction_id, original_transaction_id, version_date, is_signed, price_milli_units, price_currency FROM transactions ORDER BY transaction_id",
                as: (String, String, Double, Bool, Int64?, String?).self)
            #expect(transactions.map { "\($0.0) \($0.1) \($0.2) \($0.3) \(String(describing: $0.4)) \(String(describing: $0.5))" }
                == plan.transactions.sorted { $0.transactionID < $1.transactionID }.map {
                    "\($0.transactionID) \($0.originalTransactionID) \($0.provenance.versionDate.timeIntervalSince1970) true "
                        + "\(String(describing: $0.price?.milliUnits)) \(String(describing: $0.price?.currency))"
                })
            #expect(transactions.map(\.4) == [4_990, nil])

            let infos = try await rows(client, "SELECT original_transaction_id, record FROM renewal_infos", as: (String, String).self)
            #expect(infos.map(\.0) == ["1"])
            #expect(try infos.map(\.1) == plan.renewalInfos.map { try DecodedRecordCache.shared.json(for: $0) })

            let bindings = try await rows(
                client, "SELECT original_transaction_id, app_user_id, app_bundle_id, bound_at FROM bindings ORDER BY original_transaction_id",
                as: (String, String, String, Double).self)
            #expect(bindings.map { "\($0.0) \($0.1) \($0.2) \($0.3)" }
                == plan.bindings.sorted { $0.originalTransactionID < $1.originalTransactionID }.map {
                    "\($0.originalTransactionID) \($0.appUserID) \(ContractFixture.bundleID) \(now.timeIntervalSince1970)"
                })

            let views = try await rows(client, "SELECT app_user_id, view FROM subscriber_views ORDER BY app_user_id", as: (String, String).self)
            #expect(try views.map { "\($0.0) \($0.1)" }
                == plan.views.sorted { $0.key < $1.key }.map { "\($0.key) \(try DecodedRecordCache.shared.json(for: $0.value.storedForm, of: $0.key.rawValue))" })

            let events = try await rows(client, "SELECT event_id, app_user_id, kind, occurred_at FROM outbox ORDER BY id", as: (String, String, String, Double).self)
            #expect(events.map { "\($0.0) \($0.1) \($0.2) \($0.3)" }
                == plan.outbox.map { "\($0.eventID) \($0.appUserID) \($0.kind) \($0.occurredAt.timeIntervalSince1970)" })

            let checks = try await rows(
                client, "SELECT original_transaction_id, environment, due_at, swept_until, receipt_evidence_id FROM reconciliation_checks ORDER BY original_transaction_id",
                as: (String, String, Double?, Double?, Int64?).self)
            #expect(checks.map { "\($0.0) \($0.1) \(String(describing: $0.2)) \(String(describing: $0.3)) \(String(describing: $0.4))" }
                == plan.checks.sorted { $0.originalTransactionID < $1.originalTransactionID }.map {
                    "\($0.originalTransactionID) \(evidence.environment.rawValue) \(String(describing: $0.dueAt?.timeIntervalSince1970)) "
                        + "\(String(describing: $0.sweptUntil?.timeIntervalSince1970)) \(String(describing: Optional(evidenceID)))"
                })
            #expect(checks.last?.2 == nil && checks.last?.3 == nil)

            let audit = try await rows(client, "SELECT app_user_id, kind, evidence_id FROM audit ORDER BY id", as: (String?, String, Int64).self)
            #expect(audit.map { "\(String(describing: $0.0)) \($0.1) \($0.2)" }
                == plan.audit.map { "\(String(describing: $0.appUserID?.rawValue)) \($0.kind.rawValue) \(evidenceID)" })
            #expect(audit.last?.0 == nil)
        }
    }

    private func rows<each Column: PostgresDecodable>(
        _ client: PostgresClient, _ sql: String, as columns: (repeat each Column).Type
    ) async throws -> [(repeat each Column)] {
        var result: [(repeat each Column)] = []
        for try await row in try await client.query(PostgresQuery(unsafeSQL: sql)) {
            result.append(try row.decode(columns))
        }
        return result
    }
}
