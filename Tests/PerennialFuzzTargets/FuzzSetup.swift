public import Foundation
import SwiftASN1
public import X509

/// What the fuzz targets and the seeds of their corpus agree on: the app the evidence is for, the
/// secrets that authenticate it, and the roots its signatures chain to.
///
/// The seeds are real payloads (signed by the simulator when the corpus was seeded), so the roots
/// are stored beside the corpus: a seed then passes every check, and a mutation of it reaches the
/// parsers behind the signature instead of stopping at an untrusted chain.
public struct FuzzSetup: Sendable {
    public static let bundleID = "com.example.app"
    public static let appAppleID: Int64 = 1_234_567_890
    /// The V1 notifications' `password`.
    public static let sharedSecret = "fuzz-shared-secret"
    /// The HS256 key of app-user tokens.
    public static let userTokenSecret = "fuzz-user-token-secret"
    /// The app user the tokens are checked for.
    public static let user = "alice"
    /// The instant time-bound evidence is judged at (a token's expiry, a V1 notification's arrival).
    public static let now = Date(timeIntervalSince1970: 1_700_000_000)

    /// The file of the JWS root beside the corpus's target directories.
    public static let jwsRootFile = "jws-root.pem"
    /// The file of the app receipts' root beside the corpus's target directories.
    public static let receiptRootFile = "receipt-root.pem"

    /// The root the corpus's JWS chain to.
    public let jwsRoot: Certificate
    /// The root the corpus's app receipts chain to.
    public let receiptRoot: Certificate

    /// The roots stored in `corpus`, the directory that holds one directory per target.
    public init(corpus: URL) throws {
        func root(_ file: String) throws -> Certificate {
            try Certificate(pemEncoded: String(contentsOf: corpus.appendingPathComponent(file), encoding: .utf8))
        }
        jwsRoot = try root(Self.jwsRootFile)
        receiptRoot = try root(Self.receiptRootFile)
    }
}
