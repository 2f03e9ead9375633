import Foundation
import Hummingbird

/// The control side under `/simulator/v1`: the clock, delivery faults, verifyReceipt failures,
/// Apple's consent rescission for an account, the notification timeline and the roots a server
/// under test must trust.
struct ControlRoutes {
    let simulator: AppStoreSimulator

    func add(to group: RouterGroup<BasicRequestContext>) {
        group.get("clock") { _, _ in
            SimulatorJSON.response(ClockBody(now: await simulator.now))
        }
        group.post("clock/advance") { request, _ in
            await RouteHandling.run {
                let body = try await SimulatorJSON.decode(AdvanceBody.self, from: request)
                let step: SimulatorStep
                switch (body.seconds, body.to) {
                case (let seconds?, nil):
                    guard seconds >= 0, seconds.isFinite else { throw SimulatorRuntimeError.invalidRequest("seconds must be 0 or more, not \(seconds)") }
                    step = try await simulator.advance(by: seconds)
                case (nil, let instant?):
                    step = try await simulator.advance(to: instant)
                default:
                    throw SimulatorRuntimeError.invalidRequest("give either \"seconds\" or \"to\"")
                }
                return SimulatorJSON.response(StepBody(now: await simulator.now, notifications: step.notifications.map(NotificationBody.init)))
            }
        }
        group.put("faults") { request, _ in
            await RouteHandling.run {
                await simulator.setFaults(try await SimulatorJSON.decode(FaultsBody.self, from: request).faults)
                return Response(status: .noContent)
            }
        }
        group.put("verify-receipt-failure") { request, _ in
            await RouteHandling.run {
                let data = try await SimulatorJSON.body(of: request)
                let trimmed = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
                let failure = trimmed.isEmpty || trimmed == "null"
                    ? nil : try JSONDecoder().decode(VerifyReceiptFailureBody.self, from: data).failure
                await simulator.setVerifyReceiptFailure(failure)
                return Response(status: .noContent)
            }
        }
        group.post("accounts/:id/rescind-consent") { _, context in
            await RouteHandling.run {
                let record = try await simulator.rescindConsent(accountID: try context.parameters.require("id"))
                return SimulatorJSON.response(NotificationBody(record.notification))
            }
        }
        group.get("timeline") { _, _ in
            SimulatorJSON.response(TimelineBody(notifications: await simulator.notificationHistory().map(TimelineEntry.init)))
        }
        group.get("roots") { _, _ in
            await RouteHandling.run {
                let pki = simulator.pki
                return SimulatorJSON.response(
                    RootsBody(jwsRoot: try pki.jwsRootDER.base64EncodedString(), receiptRoot: try pki.receiptRootDER?.base64EncodedString()))
            }
        }
    }
}
