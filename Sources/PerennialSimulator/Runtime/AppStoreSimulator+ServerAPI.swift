import Foundation
import PerennialAppStore
import PerennialCore

/// The App Store Server API side: requests are answered by ``ServerAPIResponder`` against this
/// simulator, with tokens judged on the real clock the servers under test mint them with.
extension AppStoreSimulator {
    /// Apple's answer to one Server API request; without configured credentials every token is
    /// refused (401), as Apple refuses a key it does not know.
    public func respond(toServerAPI request: ServerAPIRequest) async -> ServerAPIResponse {
        guard let credentials = setup.serverAPICredentials else { return ServerAPIResponse(status: 401) }
        if let serverAPIFailure { return serverAPIFailure.response }
        var responder = ServerAPIResponder(
            credentials: credentials, pki: pki, environment: setup.environment, appAppleID: setup.wire.appAppleID)
        if let bundleVersion = setup.wire.bundleVersion { responder.bundleVersion = bundleVersion }
        responder.retention = retentionMessaging
        return await responder.respond(to: request, backend: self, now: now, tokenTime: tokenTime)
    }

    /// Why the Server API refuses the bearer token of `authorization` (the header's whole value)
    /// now, or nil when it accepts it; for the simulator's log, since Apple's 401 has no body.
    public func serverAPIRefusal(authorization: String?) -> String? {
        guard let credentials = setup.serverAPICredentials else {
            return "the simulator has no Server API key and refuses every token (start it with --server-api-key FILE --key-id ID --issuer-id ID)"
        }
        do {
            try ServerAPIAuthenticator(credentials: credentials).authenticate(authorization: authorization, now: tokenTime)
            return nil
        } catch {
            return error.description
        }
    }

    /// Servers mint bearer tokens from their own clocks: the real time for a virtual clock, the
    /// followed clock (without the skip) otherwise.
    private var tokenTime: Date {
        switch setup.time {
        case .virtual: WallClock().now
        case .following(let clock): clock.now
        }
    }
}
