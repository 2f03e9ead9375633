import Foundation
import PerennialAppStore
import PerennialCore
import PerennialSimulator

/// The authorities and stores the receipt tests share. RSA key generation is slow, so each
/// authority is generated once per test process.
enum ReceiptScenario {
    /// The simulator's PKI with a receipt authority, valid before the fixture start.
    static let pki: Result<SimulatorPKI, SimulatorWireError> = Result { () throws(SimulatorWireError) in
        try SimulatorPKI.generate(validFrom: SimulatorFixture.start.addingTimeInterval(-86_400), includesReceipts: true)
    }

    /// A receipt authority the simulator does not trust.
    static let foreignAuthority: Result<ReceiptSigningAuthority, any Error> = Result {
        try ReceiptSigningAuthority(
            name: "Foreign Receipt Signing", notValidBefore: SimulatorFixture.start.addingTimeInterval(-86_400),
            notValidAfter: SimulatorFixture.start.addingTimeInterval(10 * 86_400))
    }

    static let bundleID = "com.example.app"
    static let app = WireConfiguration(appAppleID: 1_234_567_890, bundleVersion: "1.2.3", sharedSecret: "s3cret")

    struct NoReceiptAuthority: Error {}

    /// The simulator's receipt authority.
    static func authority() throws -> ReceiptSigningAuthority {
        guard let authority = try pki.get().receipts else { throw NoReceiptAuthority() }
        return authority
    }

    /// A store in `environment` where the tester bought `pro.monthly` (renewed once) and, with
    /// `withLifetime`, the non-consumable `lifetime`.
    static func renewedStore(environment: AppStoreEnvironment = .sandbox, withLifetime: Bool = false) throws -> SimulatorState {
        var state = SimulatorState(
            configuration: SimulatorConfiguration(
                catalog: SimulatorFixture.catalog, prices: SimulatorFixture.prices, environment: environment),
            start: SimulatorFixture.start)
        _ = try state.buy("pro.monthly")
        if withLifetime { _ = try state.buy("lifetime") }
        _ = try state.apply(.advance(to: SimulatorFixture.at(310)))
        return state
    }

    /// A store where the tester only bought the non-consumable `lifetime`.
    static func lifetimeOnlyStore() throws -> SimulatorState {
        var state = SimulatorFixture.state()
        _ = try state.buy("lifetime")
        return state
    }

    /// Every transaction id of the store.
    static func transactionIDs(_ state: SimulatorState) -> Set<String> {
        Set(state.lifecycles.flatMap(\.transactions).map(\.transactionID))
    }

    /// The tester's device receipt, base64.
    static func deviceReceipt(_ state: SimulatorState) throws -> String {
        try DeviceReceipt(account: SimulatorFixture.tester, bundleID: bundleID, state: state, pki: pki.get(), configuration: app).base64
    }

    /// Posts `receiptData` to a responder playing `environment`.
    static func post(
        _ receiptData: String, password: String? = "s3cret", excludeOld: Bool? = nil, state: SimulatorState,
        environment: AppStoreEnvironment = .sandbox, failure: InjectedVerifyReceiptFailure? = nil
    ) async throws -> SimulatedVerifyReceiptReply {
        let responder = VerifyReceiptResponder(
            configuration: VerifyReceiptResponder.Configuration(environment: environment, app: app), failure: failure)
        let request = VerifyReceiptRequest(receipt_data: receiptData, password: password, exclude_old_transactions: excludeOld)
        return try await responder.respond(to: request, state: state, pki: pki.get())
    }
}
