public import Foundation
#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif

/// ``ServerAPI`` over `URLSession`, speaking the client API's JSON (docs/openapi.yaml) exactly.
public struct URLSessionServerAPI: ServerAPI {
    private let http: JSONHTTPClient
    private let publicKey: String
    private let userToken: (@Sendable (_ appUserID: String) async throws -> String?)?
    private let verifier: AnswerVerifier?

    /// A client for the server at `baseURL` (the `/v1` routes are appended) authenticating with the
    /// app's public key and, when given, the developer backend's user token. With
    /// `answerSigningKey` (the server's Ed25519 public key, 32 raw bytes) every subscriber answer
    /// must carry the server's signature or is refused with ``ServerError/unverifiedAnswer(_:)``.
    public init(
        baseURL: URL, publicKey: String, userToken: (@Sendable (_ appUserID: String) async throws -> String?)? = nil,
        answerSigningKey: Data? = nil, session: URLSession = .shared
    ) {
        self.http = JSONHTTPClient(baseURL: baseURL, session: session)
        self.publicKey = publicKey
        self.userToken = userToken
        self.verifier = answerSigningKey.map(AnswerVerifier.init(publicKey:))
    }

    public func postTransaction(_ signedTransaction: String, appUserID: String) async throws(ServerError) -> SubscriberResponse {
        try await answer("POST", appUserID, ["transactions"], body: SignedTransactionRequest(signedTransaction: signedTransaction))
    }

    public func postReceipt(_ receipt: String, appUserID: String) async throws(ServerError) -> SubscriberResponse {
        try await answer("POST", appUserID, ["receipts"], body: ReceiptRequest(receipt: receipt))
    }

    public func postAppTransaction(_ signedAppTransaction: String, appUserID: String) async throws(ServerError) -> SubscriberResponse {
        try await answer("POST", appUserID, ["app-transaction"], body: AppTransactionRequest(signedAppTransaction: signedAppTransaction))
    }

    public func logIn(appUserID: String, anonymousAppUserID: String) async throws(ServerError) -> SubscriberResponse {
        try await answer("POST", appUserID, ["log-in"], body: LogInRequest(anonymousAppUserId: anonymousAppUserID))
    }

    public func subscriber(appUserID: String) async throws(ServerError) -> SubscriberResponse {
        try await answer("GET", appUserID, [], body: NoBody?.none)
    }

    /// A subscriber answer, verified first when signed answers are configured.
    private func answer(
        _ method: String, _ appUserID: String, _ tail: [String], body: (some Encodable & Sendable)?
    ) async throws(ServerError) -> SubscriberResponse {
        guard let verifier else { return try await send(method, appUserID, tail, body: body) }
        let (data, signature) = try await http.sendReadingHeader(
            method, ["v1", "subscribers", appUserID] + tail, body: body, headers: try await headers(appUserID), header: AnswerVerifier.header)
        return try verifier.verify(body: data, signature: signature, appUserID: appUserID)
    }

    public func appAccountToken(appUserID: String) async throws(ServerError) -> UUID {
        let answer: AppAccountTokenResponse = try await send("GET", appUserID, ["app-account-token"], body: NoBody?.none)
        guard let token = UUID(uuidString: answer.appAccountToken) else {
            throw .decoding("appAccountToken '\(answer.appAccountToken)' is not a UUID")
        }
        return token
    }

    public func eligibility(productIDs: [String], appUserID: String) async throws(ServerError) -> [String: IntroEligibility] {
        let answer: EligibilityResponse = try await send("POST", appUserID, ["eligibility"], body: EligibilityRequest(productIds: productIDs))
        return answer.eligibility
    }

    public func signOffer(productID: String, offerID: String, appUserID: String) async throws(ServerError) -> SignedOffer {
        try await send("POST", appUserID, ["offers", "sign"], body: OfferSignatureRequest(productId: productID, offerId: offerID))
    }

    public func signIntroEligibility(productID: String, appUserID: String) async throws(ServerError) -> SignedIntroEligibility {
        try await send("POST", appUserID, ["offers", "intro-eligibility"], body: IntroEligibilitySignatureRequest(productId: productID))
    }

    public func offerings(appUserID: String, storefront: String?, appVersion: String?) async throws(ServerError) -> OfferingsResponse {
        let query = [storefront.map { URLQueryItem(name: "storefront", value: $0) }, appVersion.map { URLQueryItem(name: "appVersion", value: $0) }]
        return try await send("GET", appUserID, ["offerings"], query: query.compactMap { $0 }, body: NoBody?.none)
    }

    public func recordExposure(experimentID: String, appUserID: String) async throws(ServerError) -> ExposureResponse {
        try await send("POST", appUserID, ["experiments", experimentID, "exposures"], body: NoBody?.none)
    }

    private func send<Response: Decodable>(
        _ method: String, _ appUserID: String, _ tail: [String], query: [URLQueryItem] = [], body: (some Encodable & Sendable)?
    ) async throws(ServerError) -> Response {
        try await http.send(
            method, ["v1", "subscribers", appUserID] + tail, query: query, body: body, headers: try await headers(appUserID), as: Response.self)
    }

    private func headers(_ appUserID: String) async throws(ServerError) -> [String: String] {
        var headers = ["Authorization": "Bearer \(publicKey)"]
        if let userToken {
            do {
                if let token = try await userToken(appUserID) { headers["X-Perennial-User-Token"] = token }
            } catch {
                throw .invalidRequest("user token provider failed: \(error)")
            }
        }
        return headers
    }
}
