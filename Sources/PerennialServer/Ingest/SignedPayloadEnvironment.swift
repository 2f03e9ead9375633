import Foundation
import PerennialAppStore
import PerennialCore

/// The environment a signed payload claims, read before verification to pick the verifier of that
/// environment (each checks its own environment again after the signature, so a lie is caught).
///
/// Only a hint, so it is read cheaply: the payload segment is decoded but not parsed (a
/// notification's payload carries kilobytes of nested JWS); ``JSONFieldPeek`` finds `environment`
/// where Apple's payloads put it (under `data`, `summary` or `appData`, or at the top level), else
/// `receiptType`, in one walk.
enum SignedPayloadEnvironment {
    private static let paths = [["data", "environment"], ["summary", "environment"], ["appData", "environment"], ["environment"], ["receiptType"]]

    /// The claimed environment, nil when the payload names none or is not a JWS.
    static func claimed(by signed: String) -> AppStoreEnvironment? {
        guard let payload = try? JWSDecoding.unverifiedPayload(of: signed) else { return nil }
        return (try? JSONFieldPeek.firstString(at: paths, in: payload)).flatMap { $0.map(AppStoreEnvironment.init(rawValue:)) }
    }

    /// The verifier for the payload's environment, or the typed refusal.
    static func verifier(for signed: String, app: AppContext) throws(IngestError) -> SignedDataVerifier {
        let accepted = app.environments.map(\.rawValue)
        guard let claimed = claimed(by: signed) else {
            // Not even decodable: let any verifier produce the precise format error.
            guard let any = app.environments.lazy.compactMap(app.verifier(for:)).first else {
                throw .notConfigured("app \(app.id) accepts no environment")
            }
            return any
        }
        guard let verifier = app.verifier(for: claimed) else { throw .wrongEnvironment(accepted: accepted, actual: claimed.rawValue) }
        return verifier
    }
}
