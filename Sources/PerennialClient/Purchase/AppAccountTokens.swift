import Foundation

/// The server-issued `appAccountToken` per app user, fetched once and remembered, so a purchase
/// does not pay an extra round trip after the first.
actor AppAccountTokens {
    private let server: any ServerAPI
    private var tokens: [String: UUID] = [:]

    init(server: any ServerAPI) {
        self.server = server
    }

    /// The user's token, or why the server could not give it: ``PurchaseFlow`` decides whether a
    /// purchase may go ahead without it.
    func token(for appUserID: String) async -> Result<UUID, ServerError> {
        if let token = tokens[appUserID] { return .success(token) }
        do {
            let token = try await server.appAccountToken(appUserID: appUserID)
            tokens[appUserID] = token
            return .success(token)
        } catch {
            return .failure(error)
        }
    }
}
