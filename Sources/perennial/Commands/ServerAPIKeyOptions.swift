import ArgumentParser
import PerennialSandbox

/// `--server-api-key FILE --key-id ID --issuer-id ID`: the App Store Server API key a user brings
/// to a simulator, shared by `perennial simulator` and `perennial serve --simulator`.
struct ServerAPIKeyOptions: ParsableArguments {
    @Option(
        name: .customLong("server-api-key"),
        help: "A simulator's App Store Server API key (a P-256 private key in PKCS#8 PEM, as App Store Connect's .p8): its Server API accepts ES256 JWTs signed with it (needs --key-id and --issuer-id).")
    var file: String?

    @Option(name: .customLong("key-id"), help: "The key id of --server-api-key, the tokens' kid.")
    var keyID: String?

    @Option(name: .customLong("issuer-id"), help: "The issuer id the tokens' iss must name.")
    var issuerID: String?

    /// Whether any of the three options is given.
    var isGiven: Bool { file != nil || keyID != nil || issuerID != nil }

    /// The key, nil without the options; a missing or unusable one is a validation error.
    func load() throws -> SimulatorServerAPIKey? {
        do {
            return try SimulatorServerAPIKey.load(file: file, keyID: keyID, issuerID: issuerID)
        } catch {
            throw ValidationError(error.description)
        }
    }
}
