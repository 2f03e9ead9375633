import Foundation
import HTTPTypes
import Hummingbird
import Logging
import PerennialStorage

/// The admin key an operator acts with, from the admin API's bearer key or the dashboard's
/// session: its name goes into the log and every timeline entry the action writes, its scope
/// decides what it may do. A command run at a shell acts with the full scope under the operator's
/// name: whoever can read the configuration holds every key.
public struct ActingKey: Sendable, Equatable {
    public let name: String
    public let scope: AdminScope

    public init(name: String, scope: AdminScope) {
        self.name = name
        self.scope = scope
    }
}

/// One thing an operator does — grant, revoke, move, unbind, extend, refresh, look up, send a
/// test notification, change a webhook endpoint… — as a value holding its whole typed input.
/// The admin API and the dashboard are thin adapters that build the value from a request or a
/// form and hand it to ``ServerDependencies/perform(_:by:)``, so both doors decide alike, and
/// the scope the action needs is declared here, on the action, not at each door.
///
/// An action throws the typed errors of its domain (``APIError``, ``GrantError``,
/// ``WebhookEndpointError``, ``PerennialAppStore/EvidenceError``, Apple's
/// ``PerennialAppStore/AppStoreServerAPIError``), which both doors render, as JSON or as a page.
public protocol OperatorAction: Sendable {
    associatedtype Output: Sendable
    /// The least scope of a key that may perform it.
    static var scope: AdminScope { get }
    /// Performs it; what it writes is committed when this returns.
    func perform(by key: ActingKey, with dependencies: ServerDependencies) async throws -> Output
}

extension ServerDependencies {
    /// Performs `action` for `key`. The scope is checked here, whatever door the action came
    /// through, and this is the one place an operator's action nudges the webhook job: whatever
    /// the action committed (a grant's event, a moved purchase's, a requeued delivery, an endpoint
    /// that may now receive) is delivered at once rather than at the job's next round.
    public func perform<Action: OperatorAction>(_ action: Action, by key: ActingKey) async throws -> Action.Output {
        guard key.scope >= Action.scope else {
            throw AuthError.insufficientScope(key: key.name, scope: key.scope.rawValue, required: Action.scope.rawValue)
        }
        let output = try await action.perform(by: key, with: self)
        webhookWakeUp.nudge()
        return output
    }
}

extension RouterGroup where Context == PerennialRequestContext {
    /// The admin API's door to `Action` at `path`: authenticates a key of at least the action's
    /// scope (before the body is read), builds the action from the request with `make`, performs
    /// it and answers its output with `answer`.
    @discardableResult
    func action<Action: OperatorAction>(
        _ method: HTTPRequest.Method, _ path: RouterPath, dependencies: ServerDependencies,
        make: @escaping @Sendable (Request, PerennialRequestContext) async throws -> Action,
        answer: @escaping @Sendable (Action.Output) throws -> Response
    ) -> Self {
        group(path).add(middleware: dependencies.adminAuthentication(requiring: Action.scope)).on("", method: method) { request, context in
            let action = try await make(request, context)
            return try answer(try await dependencies.perform(action, by: try context.actingKey()))
        }
        return self
    }
}
