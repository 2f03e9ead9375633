import Foundation
import PerennialAppStore
import PerennialCore
import PerennialLiveHarness
import NIOHTTP1
import PerennialSimulator
import PerennialStorage
import Testing

/// Evidence the server must refuse, posted over HTTP: a 4xx and nothing stored.
@Suite("End to end: refused evidence")
struct RejectionTests {
    /// How a bad purchase is made.
    enum Forgery: String, CaseIterable {
        /// Signed by a PKI the server does not trust.
        case foreignPKI
        /// Signed by the trusted PKI, for another app.
        case wrongBundleID
        /// Signed by the trusted PKI, Production, for an app that accepts Sandbox only.
        case productionEnvironment
    }

    @Test(arguments: Forgery.allCases)
    func aForgedOrForeignTransactionIsRefusedAndNothingIsStored(_ forgery: Forgery) async throws {
        let system = try await LiveSystem.start()
        do {
            let http = LiveHTTP(system: system)
            let before = try await system.storage.evidenceCount()
            let jws = try await Self.signedTransaction(forgery, system: system)
            let response = try await http.postTransaction(jws, user: "mallory")
            #expect((400..<500).contains(response.status), "\(response.status) \(response.text)")
            #expect(response.json["error"] is String)
            #expect(try await system.storage.evidenceCount() == before)
            #expect(!(try await http.subscriber("mallory")).isActive("premium"))
        } catch {
            await system.stop()
            throw error
        }
        await system.stop()
    }

    @Test func truncatedJSONAndAMalformedReceiptAreRefusedAndNothingIsStored() async throws {
        let system = try await LiveSystem.start()
        do {
            let http = LiveHTTP(system: system)
            let before = try await system.storage.evidenceCount()
            let truncated = try await http.server(.POST, "v1/subscribers/u1/transactions", body: #"{"signedTransaction": "eyJhbGciOiJFUzI1"#)
            #expect((400..<500).contains(truncated.status), "\(truncated.status) \(truncated.text)")
            let garbage = try await http.postReceipt(Data("not a receipt at all".utf8).base64EncodedString(), user: "u1")
            #expect((400..<500).contains(garbage.status), "\(garbage.status) \(garbage.text)")
            let notBase64 = try await http.postReceipt("%%%", user: "u1")
            #expect((400..<500).contains(notBase64.status), "\(notBase64.status) \(notBase64.text)")
            #expect(try await system.storage.evidenceCount() == before)
        } catch {
            await system.stop()
            throw error
        }
        await system.stop()
    }

    /// A purchase made on a second, in-process simulator set up to produce `forgery`.
    private static func signedTransaction(_ forgery: Forgery, system: LiveSystem) async throws -> String {
        var catalogJSON = LiveCatalog.json
        var environment = AppStoreEnvironment.sandbox
        var pki = PKISource.provided(system.simulator.pki)
        switch forgery {
        case .foreignPKI: pki = .generate(receipts: false)
        case .wrongBundleID: catalogJSON = catalogJSON.replacingOccurrences(of: LiveCatalog.bundleID, with: "com.example.other")
        case .productionEnvironment: environment = .production
        }
        let catalog = try CatalogLoader.load(json: Data(catalogJSON.utf8))
        let other = try AppStoreSimulator(
            setup: SimulatorSetup(catalog: catalog, environment: environment, time: .virtual(start: system.now), pki: pki))
        try await other.createAccount(SandboxAccount(id: "mallory"))
        let device = catalogJSON == LiveCatalog.json ? LiveCatalog.premiumMonthly : LiveCatalog.premiumMonthly.replacingOccurrences(
            of: LiveCatalog.bundleID, with: "com.example.other")
        guard case .purchased(let purchase) = try await other.purchase(DevicePurchase(accountID: "mallory", productID: device)) else {
            throw LiveHTTP.Failure(description: "the forging simulator did not complete the purchase")
        }
        return purchase.signedTransaction
    }
}
