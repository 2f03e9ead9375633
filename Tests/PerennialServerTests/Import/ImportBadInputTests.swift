import Foundation
import PerennialAppStore
import PerennialCore
import PerennialServer
import PerennialSimulator
import PerennialStorage
import Testing

/// What a previous backend's file gets wrong is reported line by line, and the rest imported: a
/// malformed row, a row of another store, an id Apple does not know, a receipt of another app.
/// Nothing of a refused row is stored.
@Suite struct ImportBadInputTests {
    @Test func eachBadRowIsReportedWithItsLineAndTheRestImported() async throws {
        let world = try await ImportWorld.played(customers: 2)
        let csv = """
            app_user_id,transaction_id
            \(world.customers[0].user.rawValue),\(world.customers[0].originalTransactionID)
            no-transaction,
            ghost,2000000999999999
            too,many,fields
            "\(world.customers[1].user.rawValue)","\(world.customers[1].latestTransactionID)"
            odd,"12 34"
            """
        let input = try ImportInput.csv(Data(csv.utf8), format: .transactions)
        let imported = try await ImportWorld.emptyPerennial()
        let dryRun = try SubscriberImport.dryRun(input, app: world.app)
        #expect(dryRun.toAsk == 3)
        #expect(dryRun.problems.map(\.line) == [3, 5, 7])
        #expect(try await imported.evidenceCount() == 0, "a dry run writes nothing")
        let job = try await world.importer(into: imported).run(input)
        #expect(job.counts.imported == 2)
        #expect(job.counts.malformed == 3)
        #expect(job.counts.notFound == 1)
        let report = try await imported.importProblems(of: job.id, after: 0, limit: 100)
        #expect(report.map(\.line) == [3, 4, 5, 7])
        #expect(report.map(\.outcome) == [.malformed, .notFound, .malformed, .malformed])
        #expect(report[1].message.contains("4040010"), "\(report[1].message)")
        #expect(try await imported.subscriber("ghost", appBundleID: StoreWorld.bundleID).records.evidence.transactions.isEmpty)
        // Only the two imported purchases left evidence.
        #expect(try await imported.evidenceCount() == 2)
    }

    @Test func aReceiptOfAnotherAppIsRefused() async throws {
        let world = try await ImportWorld.played(customers: 1)
        var elsewhere = try StoreWorld(environment: .production, bundleID: "com.example.other")
        let account = SandboxAccount(id: "stranger@example.com", storefront: "USA")
        _ = try elsewhere.buy("pro.monthly", account: account)
        let foreign = try DeviceReceipt(
            account: account, bundleID: "com.example.other", state: elsewhere.state, pki: elsewhere.pki, configuration: StoreWorld.wire
        ).base64
        let own = try #require(try await world.receipts().first)
        let csv = ImportWorld.csv(["app_user_id", "receipt"], [["stranger", foreign], [own.user.rawValue, own.base64], ["garbled", "not base64!"]])
        let imported = try await ImportWorld.emptyPerennial()
        let job = try await world.importer(into: imported).run(try ImportInput.csv(csv, format: .receipts))
        let report = try await imported.importProblems(of: job.id, after: 0, limit: 100)
        #expect(report.map(\.line) == [2, 4])
        #expect(report.map(\.outcome) == [.refused, .malformed])
        #expect(report[0].message.contains("bundle"), "\(report[0].message)")
        #expect(job.counts.imported == 1)
        #expect(try await imported.subscriber("stranger", appBundleID: StoreWorld.bundleID).records.evidence.transactions.isEmpty)
        try await world.expectSameAnswers(imported)
    }

    @Test func aFileWithoutTheColumnsOfItsFormatIsRefusedWhole() throws {
        #expect(throws: ImportInput.Unusable.self) { try ImportInput.csv(Data("user,product\nalice,pro".utf8), format: .transactions) }
        #expect(throws: ImportInput.Unusable.self) { try ImportInput.csv(Data(), format: .revenueCat) }
        #expect(throws: ImportInput.Unusable.self) { try ImportInput.csv(Data("app_user_id,transaction_id\n\"alice,1".utf8), format: .transactions) }
        #expect(throws: ImportInput.Unusable.self) { try ImportInput.csv(Data("app_user_id,transaction_id\n".utf8), format: .receipts) }
    }

    @Test func quotedFieldsAndLineEndingsAreRead() throws {
        let csv = "\u{FEFF}App User ID,Original Transaction Id\r\n\"a \"\"quoted\"\", user\",100\r\n\r\n\"multi\nline\",200\nlast,300"
        let rows = try ImportInput.csv(Data(csv.utf8), format: .transactions).allRows()
        #expect(rows.map(\.line) == [2, 4, 6])
        guard case .transaction(let id, let user, nil) = rows[0].content else { Issue.record("\(rows[0])"); return }
        #expect(id == "100")
        #expect(user == "a \"quoted\", user")
        guard case .transaction(_, let second, _) = rows[1].content else { Issue.record("\(rows[1])"); return }
        #expect(second == "multi\nline")
    }
}
