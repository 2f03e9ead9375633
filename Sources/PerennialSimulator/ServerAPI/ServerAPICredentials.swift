public import Crypto

/// The App Store Connect keys the simulated Server API accepts, and the app they are for.
///
/// Apple finds the public half of an In-App Purchase key by the token's `kid` and checks that the
/// token's issuer and bundle id match the account and app; the simulator checks the same facts,
/// so a server that authenticates against the simulator authenticates against Apple.
public struct ServerAPICredentials: Sendable {
    /// The issuer id (`iss`) of the App Store Connect team.
    public let issuerID: String
    /// The bundle id (`bid`) every token must name; transactions of other apps are not visible.
    public let bundleID: String
    /// The public key of each accepted key id (`kid`).
    public let keys: [String: P256.Signing.PublicKey]

    /// Accepts tokens of `issuerID` for `bundleID` signed with any of `keys`.
    public init(issuerID: String, bundleID: String, keys: [String: P256.Signing.PublicKey]) {
        self.issuerID = issuerID
        self.bundleID = bundleID
        self.keys = keys
    }

    /// Accepts tokens signed with one key, the usual setup.
    public init(issuerID: String, bundleID: String, keyID: String, publicKey: P256.Signing.PublicKey) {
        self.init(issuerID: issuerID, bundleID: bundleID, keys: [keyID: publicKey])
    }
}
