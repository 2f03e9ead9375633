import Foundation
import Hummingbird
import HummingbirdTesting
import PerennialAppStore
import PerennialCore
import PerennialSimulator
import Testing

/// The simulator signs app transactions (StoreKit 2's `AppTransaction.shared`) on the device and in
/// the Server API, the same for one customer in both, verifiable against its root.
@Suite struct AppTransactionSigningTests {
    /// Carol bought the app in version 1.0 two years before the simulation starts.
    static let download = AppDownload(date: FidelityWorld.start.addingTimeInterval(-2 * 365 * 86_400).wholeMilliseconds, version: "1.0")

    @Test func theDeviceSignsTheDownloadTheAccountStates() async throws {
        let simulator = try await FidelityWorld.simulator(transport: RecordingTransport())
        try await simulator.createAccount(SandboxAccount(id: "carol", appDownload: Self.download))
        let signed = try await simulator.appTransaction(accountID: "carol")
        let payload = try await RuntimeFixture.verifier().verifyAppTransaction(signed)
        #expect(payload.bundleId == RuntimeFixture.bundleID)
        #expect(payload.receiptType == .sandbox)
        #expect(payload.originalPurchaseDate == Self.download.date)
        #expect(payload.originalApplicationVersion == "1.0")
        #expect(payload.applicationVersion == "1.2.3")
        #expect(payload.appTransactionId == AppTransactionIdentifier.of(accountID: "carol", bundleID: RuntimeFixture.bundleID))
        #expect(payload.signedDate == (await simulator.now))
    }

    @Test func aTesterWithoutADownloadGotTheAppWhenTheAccountWasMade() async throws {
        let simulator = try await FidelityWorld.simulator(transport: RecordingTransport())
        let madeAt = await simulator.now
        _ = try await simulator.advance(by: 86_400)
        let payload = try await RuntimeFixture.verifier().verifyAppTransaction(try await simulator.appTransaction(accountID: "bob"))
        #expect(payload.originalPurchaseDate == madeAt)
        // Apple states "1.0" as the original version of every sandbox download.
        #expect(payload.originalApplicationVersion == "1.0")
    }

    @Test func anUnknownAccountHasNoAppTransaction() async throws {
        let simulator = try await FidelityWorld.simulator(transport: RecordingTransport())
        await #expect {
            _ = try await simulator.appTransaction(accountID: "nobody")
        } throws: { error in
            guard case SimulatorRuntimeError.unknownAccount(let id) = error else { return false }
            return id == "nobody"
        }
    }

    @Test func theServerAPIAnswersTheSameAppTransactionAsTheDevice() async throws {
        let simulator = try await FidelityWorld.simulator(transport: RecordingTransport())
        try await simulator.createAccount(SandboxAccount(id: "carol", appDownload: Self.download))
        let purchase = try await simulator.purchase(DevicePurchase(accountID: "carol", productID: "pro.monthly")).completed()
        let device = try await RuntimeFixture.verifier().verifyAppTransaction(try await simulator.appTransaction(accountID: "carol"))
        try await buildSimulatorApplication(simulator: simulator).test(.live) { client in
            let api = FidelityWorld.client(port: try #require(client.port))
            let answer = try await api.send(.appTransaction(transactionID: purchase.transaction.transactionID), as: AppTransactionInfoResponse.self)
            let server = try await RuntimeFixture.verifier().verifyAppTransaction(try #require(answer.signedAppTransactionInfo))
            #expect(server.originalPurchaseDate == device.originalPurchaseDate)
            #expect(server.originalApplicationVersion == device.originalApplicationVersion)
            #expect(server.appTransactionId == device.appTransactionId)
            #expect(server.appTransactionId == purchase.transaction.appTransactionID)
        }
    }

    @Test func theDeviceRouteAnswersTheSignedAppTransaction() async throws {
        let simulator = try await FidelityWorld.simulator(transport: RecordingTransport())
        try await buildSimulatorApplication(simulator: simulator).test(.router) { client in
            let created = try await client.execute(
                uri: "/simulator/v1/accounts", method: .post, headers: [.contentType: "application/json"],
                body: ByteBuffer(string: #"{"id": "carol", "appDownload": {"date": "2021-11-14T22:13:20.000Z", "version": "2.1"}}"#))
            #expect(created.status == .created)
            let answer = try await client.execute(uri: "/simulator/v1/accounts/carol/app-transaction", method: .get)
            #expect(answer.status == .ok)
            let body = try JSONDecoder().decode([String: String].self, from: Data(answer.body.readableBytesView))
            let payload = try await RuntimeFixture.verifier().verifyAppTransaction(try #require(body["signedAppTransaction"]))
            #expect(payload.originalApplicationVersion == "2.1")
            #expect(payload.originalPurchaseDate == Date(timeIntervalSince1970: 1_636_928_000))
            let unknown = try await client.execute(uri: "/simulator/v1/accounts/nobody/app-transaction", method: .get)
            #expect(unknown.status == .notFound)
        }
    }
}
