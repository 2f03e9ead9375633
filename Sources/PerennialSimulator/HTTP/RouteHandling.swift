import Hummingbird

/// Runs one handler and turns its failures into the API's `{"error", "message"}` answers, so no
/// handler repeats the mapping and no failure escapes as Hummingbird's plain 500.
enum RouteHandling {
    static func run(_ body: () async throws -> Response) async -> Response {
        do {
            return try await body()
        } catch let error as SimulatorRuntimeError {
            return answer(for: error)
        } catch let error as SimulatorHTTPError {
            return SimulatorJSON.error(status: .badRequest, code: "badRequest", message: error.description)
        } catch {
            return SimulatorJSON.error(status: .badRequest, code: "badRequest", message: "\(error)")
        }
    }

    static func answer(for error: SimulatorRuntimeError) -> Response {
        switch error {
        case .unknownAccount, .unknownPendingPurchase:
            return SimulatorJSON.error(status: .notFound, code: "notFound", message: error.description)
        case .invalidRequest:
            return SimulatorJSON.error(status: .badRequest, code: "invalidRequest", message: error.description)
        case .lifecycle(let lifecycle):
            switch lifecycle {
            case .unknownProduct, .unknownSubscription, .unknownTransaction:
                return SimulatorJSON.error(status: .notFound, code: "notFound", message: error.description)
            default:
                return SimulatorJSON.error(status: .conflict, code: "refused", message: error.description)
            }
        case .wire:
            return SimulatorJSON.error(status: .internalServerError, code: "simulatorFault", message: error.description)
        }
    }
}
