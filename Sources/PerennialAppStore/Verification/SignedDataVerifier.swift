import Foundation
public import PerennialCore
public import X509

/// Verifies every kind of signed data Apple sends for one app — transactions, renewal infos, app
/// transactions and V2 notifications with their nested JWS — and checks that it is meant for this
/// app and this environment.
///
/// A valid Apple signature only proves that Apple said something; it does not prove Apple said it
/// about *this* app in *this* environment. So after ``JWSVerifier`` has checked the chain and the
/// signature, the decoded payload's bundle id, environment and (in production) app Apple id are
/// compared with the configuration. StoreKit-testing data (`Xcode`, `LocalTesting`) is signed by a
/// local key that chains to nothing; it is decoded without a signature check only when the
/// verifier was configured for that environment explicitly — never in production or sandbox.
public struct SignedDataVerifier: Sendable {
    public let bundleID: String
    public let environment: AppStoreEnvironment
    public let appAppleID: Int64?
    private let jws: JWSVerifier

    /// - Throws: ``SignedDataVerificationError/missingAppAppleID`` for production without an app
    ///   Apple id, because production notifications must be matched against it.
    public init(
        trustedRoots: [Certificate],
        bundleID: String,
        environment: AppStoreEnvironment,
        appAppleID: Int64? = nil,
        chainCacheCapacity: Int = 64
    ) throws(SignedDataVerificationError) {
        if environment == .production, appAppleID == nil { throw .missingAppAppleID }
        self.bundleID = bundleID
        self.environment = environment
        self.appAppleID = appAppleID
        self.jws = JWSVerifier(trustedRoots: trustedRoots, chainCacheCapacity: chainCacheCapacity)
    }

    /// Whether signatures are skipped: only for StoreKit testing environments configured as such.
    private var isLocalTesting: Bool { environment == .xcode || environment == .localTesting }

    /// Verifies a `signedTransactionInfo` (StoreKit 2 `Transaction.jwsRepresentation`).
    public func verifyTransaction(_ signed: String, at time: JWSValidationTime = .signedDate) async throws(SignedDataVerificationError) -> JWSTransactionDecodedPayload {
        let transaction = try await decodeVerified(signed, as: JWSTransactionDecodedPayload.self, at: time)
        try check(bundleID: transaction.bundleId)
        try check(environment: transaction.environment)
        return transaction
    }

    /// Verifies a `signedRenewalInfo`; renewal infos carry no bundle id, so only the environment is
    /// checked (the notification or transaction they arrive with carries the bundle id).
    public func verifyRenewalInfo(_ signed: String, at time: JWSValidationTime = .signedDate) async throws(SignedDataVerificationError) -> JWSRenewalInfoDecodedPayload {
        let renewalInfo = try await decodeVerified(signed, as: JWSRenewalInfoDecodedPayload.self, at: time)
        try check(environment: renewalInfo.environment)
        return renewalInfo
    }

    /// Verifies a `signedAppTransactionInfo` (StoreKit 2 `AppTransaction`).
    public func verifyAppTransaction(_ signed: String, at time: JWSValidationTime = .signedDate) async throws(SignedDataVerificationError) -> AppTransaction {
        let appTransaction = try await decodeVerified(signed, as: AppTransaction.self, at: time)
        try check(bundleID: appTransaction.bundleId)
        try check(environment: appTransaction.receiptType)
        try check(appAppleID: appTransaction.appAppleId)
        return appTransaction
    }

    /// Verifies a V2 notification's `signedPayload` and every JWS nested in it.
    ///
    /// The app checks use whichever of `data`, `summary`, `externalPurchaseToken` or `appData` the
    /// notification carries, as Apple's libraries do.
    public func verifyNotification(_ signedPayload: String, at time: JWSValidationTime = .signedDate) async throws(SignedDataVerificationError) -> VerifiedNotification {
        let payload = try await decodeVerified(signedPayload, as: ResponseBodyV2DecodedPayload.self, at: time)
        let claims = Self.appClaims(of: payload)
        try check(bundleID: claims.bundleID)
        try check(environment: claims.environment)
        try check(appAppleID: claims.appAppleID)

        var verified = VerifiedNotification(payload: payload)
        if let signed = payload.data?.signedTransactionInfo {
            verified.transaction = try await nested("signedTransactionInfo") { () async throws(SignedDataVerificationError) in
                try await verifyTransaction(signed, at: time)
            }
        }
        if let signed = payload.data?.signedRenewalInfo {
            verified.renewalInfo = try await nested("signedRenewalInfo") { () async throws(SignedDataVerificationError) in
                try await verifyRenewalInfo(signed, at: time)
            }
        }
        if let signed = payload.appData?.signedAppTransactionInfo {
            verified.appTransaction = try await nested("signedAppTransactionInfo") { () async throws(SignedDataVerificationError) in
                try await verifyAppTransaction(signed, at: time)
            }
        }
        return verified
    }

    /// Verifies the `signedPayload` Apple POSTs to the Get Retention Message endpoint; Apple asks
    /// to check its `appAppleId` (production) and its environment before answering.
    public func verifyRealtimeRequest(_ signedPayload: String, at time: JWSValidationTime = .signedDate) async throws(SignedDataVerificationError)
        -> DecodedRealtimeRequestBody
    {
        let request = try await decodeVerified(signedPayload, as: DecodedRealtimeRequestBody.self, at: time)
        try check(environment: request.environment)
        try check(appAppleID: request.appAppleId)
        return request
    }

    // MARK: - Steps

    private func decodeVerified<Payload: Decodable>(_ signed: String, as type: Payload.Type, at time: JWSValidationTime) async throws(SignedDataVerificationError) -> Payload {
        let payload: Data
        do {
            payload = isLocalTesting
                ? try JWSDecoding.decodeUnverified(signed).payload
                : try await jws.verify(signed, at: time).payload
        } catch {
            throw .signature(error)
        }
        do {
            return try JSONDecoder().decode(Payload.self, from: payload)
        } catch {
            throw .malformedPayload("\(Payload.self): \(error)")
        }
    }

    private func nested<T>(_ field: String, _ body: () async throws(SignedDataVerificationError) -> T) async throws(SignedDataVerificationError) -> T {
        do {
            return try await body()
        } catch {
            throw .nested(field: field, error)
        }
    }

    private func check(bundleID actual: String?) throws(SignedDataVerificationError) {
        guard actual == bundleID else { throw .wrongBundleID(expected: bundleID, actual: actual) }
    }

    private func check(environment actual: AppleEnvironment?) throws(SignedDataVerificationError) {
        guard actual?.coreValue == environment else {
            throw .wrongEnvironment(expected: environment, actual: actual?.rawValue)
        }
    }

    private func check(appAppleID actual: Int64?) throws(SignedDataVerificationError) {
        guard environment == .production, let appAppleID else { return }
        guard actual == appAppleID else { throw .wrongAppAppleID(expected: appAppleID, actual: actual) }
    }

    /// The app a notification speaks about, from whichever body it carries.
    private static func appClaims(of payload: ResponseBodyV2DecodedPayload) -> (bundleID: String?, environment: AppleEnvironment?, appAppleID: Int64?) {
        if let data = payload.data { return (data.bundleId, data.environment, data.appAppleId) }
        if let summary = payload.summary { return (summary.bundleId, summary.environment, summary.appAppleId) }
        if let appData = payload.appData { return (appData.bundleId, appData.environment, appData.appAppleId) }
        if let token = payload.externalPurchaseToken {
            return (token.bundleId, token.isSandbox ? .sandbox : .production, token.appAppleId)
        }
        return (nil, nil, nil)
    }
}
