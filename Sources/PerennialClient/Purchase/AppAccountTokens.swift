import Foundation

/// The server-issued `appAccountToken` per app user, fetched once and remembered, so a purchase
/// does not pay an extra round trip after the first.
actor AppAccountTokens {
    private let server: any ServerAPI
    private var tokens: [String: UUID] = [:]

    init(server: any ServerAPI) {
        self.server = server
    }

    /// The user's token, or nil when the server cannot be reached. A purchase then goes ahead
    /// without one: the upload's path still names the user, so attribution does not depend on it.
    func token(for appUserID: String) async -> UUID? {
        if let token = tokens[appUserID] { return token }
        guard let token = try? await server.appAccountToken(appUserID: appUserID) else { return nil }
        tokens[appUserID] = token
        return token
    }
}
