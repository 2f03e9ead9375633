public import PerennialAppStore
public import PerennialCore

/// The verifyReceipt endpoints: the simulator's own environment answers, the other one redirects
/// with 21007/21008, and an injected failure replaces every answer.
extension AppStoreSimulator {
    /// Apple's answer to a verifyReceipt POST at the endpoint playing `endpoint` (the simulator's
    /// environment for `/verifyReceipt`).
    public func verifyReceipt(
        _ request: VerifyReceiptRequest, endpoint: AppStoreEnvironment
    ) async throws(SimulatorRuntimeError) -> SimulatedVerifyReceiptReply {
        if now > state.now { _ = try await synchronize() }
        let responder = VerifyReceiptResponder(
            configuration: VerifyReceiptResponder.Configuration(environment: endpoint, app: setup.wire), failure: verifyReceiptFailure)
        do throws(SimulatorWireError) {
            return try await responder.respond(to: request, state: state, pki: pki)
        } catch {
            throw .wire(error)
        }
    }
}
