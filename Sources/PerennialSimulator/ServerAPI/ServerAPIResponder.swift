public import Foundation
public import PerennialCore
import PerennialAppStore

/// The App Store Server API as the simulator answers it, with Apple's paths, JWT authentication,
/// models and error codes, and no HTTP framework: the HTTP layer hands it a ``ServerAPIRequest``
/// and sends back the ``ServerAPIResponse``.
///
/// It reads the store through ``SimulatorBackend`` and changes it only through the backend: lifecycle
/// actions (a renewal date extension, an app account token) and the device's finished transactions,
/// so what a server learns here is exactly what the notifications and the device see. Signed
/// transactions and renewal infos are signed with the simulator's PKI at `now`, so they verify
/// against the same root as its notifications.
public struct ServerAPIResponder: Sendable {
    /// Checks every request's bearer token.
    public let authenticator: ServerAPIAuthenticator
    /// Signs the transactions and renewal infos of the answers.
    public let pki: SimulatorPKI
    /// The environment the answers state (`environment` of status and history answers).
    public let environment: AppStoreEnvironment
    /// The app's Apple id, stated in production answers only, as Apple does.
    public let appAppleID: Int64?
    /// The app's CFBundleVersion, the `applicationVersion` of app transactions.
    public var bundleVersion: String = WireConfiguration.defaultBundleVersion
    /// The Retention Messaging setup the messaging endpoints read and change; the simulator passes
    /// its own so it outlives one request.
    public var retention = RetentionMessaging()

    /// A responder accepting `credentials`' tokens and signing with `pki`.
    public init(credentials: ServerAPICredentials, pki: SimulatorPKI, environment: AppStoreEnvironment, appAppleID: Int64? = nil) {
        self.authenticator = ServerAPIAuthenticator(credentials: credentials)
        self.pki = pki
        self.environment = environment
        self.appAppleID = appAppleID
    }

    /// The bundle id whose transactions the answers show.
    var bundleID: String { authenticator.credentials.bundleID }

    /// `appAppleId` as the answers carry it: production only.
    var statedAppAppleID: Int64? { environment == .production ? appAppleID : nil }

    var appleEnvironment: AppleEnvironment { AppleEnvironment(simulated: environment) }

    /// Answers one request.
    ///
    /// - Parameters:
    ///   - now: the simulator's instant; it stamps `signedDate` and bounds notification history.
    ///   - tokenTime: the instant the bearer token's `iat`/`exp` are judged at, defaulting to `now`.
    ///     A simulator on a virtual clock that runs ahead of real time passes the wall-clock time
    ///     here, because the servers under test mint their tokens from their own clocks.
    public func respond(
        to request: ServerAPIRequest, backend: any SimulatorBackend, now: Date, tokenTime: Date? = nil
    ) async -> ServerAPIResponse {
        // Apple states every instant in whole milliseconds.
        let now = now.wholeMilliseconds
        let route: ServerAPIRoute
        switch ServerAPIRoute.match(method: request.method, segments: request.pathSegments) {
        case .notFound:
            return ServerAPIFailure.unknownPath.response
        case .methodNotAllowed(let allowed):
            var response = ServerAPIFailure.methodNotAllowed.response
            response.headers["Allow"] = allowed
            return response
        case .route(let matched):
            route = matched
        }
        do {
            try authenticator.authenticate(authorization: request.header("Authorization"), now: tokenTime ?? now)
        } catch {
            // Apple answers any authentication failure with a bare 401.
            return .empty(status: 401)
        }
        do {
            return try await answer(route, request: request, backend: backend, now: now)
        } catch {
            return error.response
        }
    }

    private func answer(
        _ route: ServerAPIRoute, request: ServerAPIRequest, backend: any SimulatorBackend, now: Date
    ) async throws(ServerAPIFailure) -> ServerAPIResponse {
        switch route {
        case .subscriptionStatuses(let id):
            try await subscriptionStatuses(transactionID: id, request: request, backend: backend, now: now)
        case .transactionHistory(let id):
            try await transactionHistory(transactionID: id, request: request, backend: backend, now: now)
        case .transactionHistoryV1(let id):
            try await transactionHistory(transactionID: id, request: request, backend: backend, now: now, excludingFinishedConsumables: true)
        case .massExtendRenewalDate:
            try await massExtendRenewalDate(request: request, backend: backend)
        case .massExtensionStatus(let productID, let requestIdentifier):
            try await massExtensionStatus(productID: productID, requestIdentifier: requestIdentifier, backend: backend)
        case .appTransactionInfo(let id):
            try await appTransactionInfo(transactionID: id, backend: backend, now: now)
        case .transactionInfo(let id):
            try await transactionInfo(transactionID: id, backend: backend, now: now)
        case .refundHistory(let id):
            try await refundHistory(transactionID: id, request: request, backend: backend, now: now)
        case .orderLookup(let id):
            try await orderLookup(orderID: id, backend: backend, now: now)
        case .notificationHistory:
            try await notificationHistory(request: request, backend: backend, now: now)
        case .requestTestNotification:
            try await requestTestNotification(backend: backend)
        case .testNotificationStatus(let token):
            try await testNotificationStatus(token: token, backend: backend)
        case .extendRenewalDate(let id):
            try await extendRenewalDate(originalTransactionID: id, request: request, backend: backend)
        case .consumptionV1(let id):
            try await consumptionV1(transactionID: id, request: request, backend: backend)
        case .consumption(let id):
            try await consumption(transactionID: id, request: request, backend: backend)
        case .setAppAccountToken(let id):
            try await setAppAccountToken(originalTransactionID: id, request: request, backend: backend)
        case .finishTransaction(let id):
            try await finishTransaction(transactionID: id, backend: backend)
        case .retention(let route):
            try await retentionMessaging(route, request: request, backend: backend, now: now)
        }
    }

    /// The signed form of `transaction`, as every answer carries it.
    func sign(_ transaction: SimulatedTransaction, now: Date) throws(ServerAPIFailure) -> String {
        do {
            return try pki.signedTransaction(transaction, signedDate: now)
        } catch {
            throw .internalError(error.description)
        }
    }

    /// The signed form of `renewalInfo`.
    func sign(_ renewalInfo: SimulatedRenewalInfo, now: Date) throws(ServerAPIFailure) -> String {
        do {
            return try pki.signedRenewalInfo(renewalInfo, signedDate: now)
        } catch {
            throw .internalError(error.description)
        }
    }

    /// A request body decoded as `T`; unreadable JSON is Apple's general bad request.
    func decodeBody<T: Decodable>(_ type: T.Type, from request: ServerAPIRequest) throws(ServerAPIFailure) -> T {
        do {
            return try JSONDecoder().decode(T.self, from: request.body)
        } catch {
            throw .general("The request body is not valid JSON for \(T.self).")
        }
    }
}
