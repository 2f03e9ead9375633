import Foundation
import Hummingbird

/// `POST /simulator/v1/actions`: one scenario step in the scenario file's JSON, carried out now.
struct ActionRoutes {
    let simulator: AppStoreSimulator

    func add(to group: RouterGroup<BasicRequestContext>) {
        group.post("actions") { request, _ in
            await RouteHandling.run {
                let step: ScenarioStep
                do {
                    step = try ScenarioStep.decode(json: try await SimulatorJSON.body(of: request))
                } catch let error as ScenarioDecodingError {
                    return SimulatorJSON.error(status: .badRequest, code: "invalidStep", message: error.description)
                }
                // An expectation is a file's check against its own run; over HTTP it was answered
                // 200 unchecked, which read as "it holds".
                if case .expect = step {
                    return SimulatorJSON.error(
                        status: .badRequest, code: "invalidStep",
                        message: "expect is checked by `perennial simulator run` on a scenario file; over HTTP, read the notifications each step answers")
                }
                do throws(ScenarioStepError) {
                    let result = try await simulator.performAction(step)
                    return SimulatorJSON.response(
                        ActionAnswer(now: await simulator.now, notifications: result?.notifications.map(NotificationBody.init) ?? []))
                } catch {
                    switch error {
                    case .resolution(let reason):
                        return SimulatorJSON.error(status: .badRequest, code: "unresolvedStep", message: reason.description)
                    case .simulator(let refusal):
                        return RouteHandling.answer(for: refusal)
                    }
                }
            }
        }
    }

    /// What the step sent, like a clock advance's answer.
    struct ActionAnswer: Encodable {
        let now: Date
        let notifications: [NotificationBody]
    }
}
