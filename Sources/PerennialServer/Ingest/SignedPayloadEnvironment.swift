import Foundation
import PerennialAppStore
import PerennialCore

/// The environment a signed payload claims, read before verification to pick the verifier of that
/// environment (each checks its own environment again after the signature, so a lie is caught).
enum SignedPayloadEnvironment {
    private struct Claims: Decodable {
        struct Body: Decodable { var environment: String? }
        var environment: String?
        var receiptType: String?
        var data: Body?
        var summary: Body?
        var appData: Body?
    }

    /// The claimed environment, nil when the payload names none or is not a JWS.
    static func claimed(by signed: String) -> AppStoreEnvironment? {
        guard let payload = try? JWSDecoding.decodeUnverified(signed).payload,
            let claims = try? JSONDecoder().decode(Claims.self, from: payload)
        else { return nil }
        let text = claims.environment ?? claims.data?.environment ?? claims.summary?.environment ?? claims.appData?.environment
            ?? claims.receiptType
        return text.map(AppStoreEnvironment.init(rawValue:))
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
