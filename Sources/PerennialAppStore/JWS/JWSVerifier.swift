import Crypto
import Foundation
public import X509

/// Verifies the ES256 compact JWS that Apple signs transactions, renewal info and notifications with.
///
/// A JWS passes when its format is compact, its `alg` is `ES256`, its `x5c` holds exactly three
/// certificates, the leaf chains through the intermediate to one of `trustedRoots` under RFC 5280 and
/// Apple's marker rule at the validation time, and the signature verifies with the leaf's key.
///
/// Apple signs many payloads with the same chain, so a verified chain is cached per verifier, keyed
/// by the header segment's bytes (identical header bytes carry identical `x5c`). A repeated
/// chain then costs one ECDSA verification; its validity window is still checked at every
/// validation time. Xcode and StoreKit-testing data are self-signed and never verify here; they are
/// read through `JWSDecoding.decodeUnverified` when that environment is configured explicitly.
public struct JWSVerifier: Sendable {
    private let validator: AppleChainValidator
    private let cache: ChainCache

    /// A verifier trusting `trustedRoots` (Apple Root CA - G3 in production and sandbox), caching up
    /// to `chainCacheCapacity` chains (zero disables the cache).
    public init(trustedRoots: [Certificate], chainCacheCapacity: Int = 64) {
        validator = AppleChainValidator(trustedRoots: trustedRoots)
        cache = ChainCache(capacity: chainCacheCapacity)
    }

    /// Verifies a compact JWS and returns its header and payload bytes.
    ///
    /// Asynchronous because swift-certificates' chain building is; a JWS whose chain is already
    /// cached completes without suspending (see `verifyWithCachedChain(_:at:)`).
    public func verify(_ compact: String, at time: JWSValidationTime = .signedDate) async throws(JWSVerificationError) -> VerifiedJWS {
        let jws = try CompactJWS(compact)
        let key = ChainCache.Key(jws.headerSegment)
        if let chain = cache.chain(for: key) {
            return try Self.verify(jws, with: chain, at: time)
        }
        let header = try jws.header()
        guard header.alg == "ES256" else { throw .unsupportedAlgorithm(header.alg) }
        guard header.x5c.count == 3 else { throw .chainLength(header.x5c.count) }
        let payload = try jws.payload()
        let signature = try jws.signature()
        let (validationTime, signedDate) = try Self.times(time, payload: payload)
        let chain = try await validator.validate(header, at: validationTime)
        cache.insert(chain, for: key)
        return try Self.finish(jws, payload: payload, signature: signature, signedDate: signedDate, chain: chain)
    }

    /// The synchronous fast path: verifies `compact` when its header's chain is cached, and returns
    /// nil when it is not (then call `verify(_:at:)`).
    ///
    /// A cached chain is still rejected when the validation time falls outside its validity window.
    public func verifyWithCachedChain(_ compact: String, at time: JWSValidationTime = .signedDate) throws(JWSVerificationError) -> VerifiedJWS? {
        let jws = try CompactJWS(compact)
        guard let chain = cache.chain(for: ChainCache.Key(jws.headerSegment)) else { return nil }
        return try Self.verify(jws, with: chain, at: time)
    }

    /// How many verified chains the cache holds, for tests and diagnostics.
    public var cachedChainCount: Int { cache.count }

    /// How many verifications reused a cached chain, for tests and diagnostics.
    public var chainCacheHits: Int { cache.hits }

    private static func verify(_ jws: CompactJWS, with chain: VerifiedChain, at time: JWSValidationTime) throws(JWSVerificationError) -> VerifiedJWS {
        let payload = try jws.payload()
        let signature = try jws.signature()
        let (validationTime, signedDate) = try times(time, payload: payload)
        if let violation = chain.window.violation(at: validationTime) { throw violation }
        return try finish(jws, payload: payload, signature: signature, signedDate: signedDate, chain: chain)
    }

    private static func finish(
        _ jws: CompactJWS,
        payload: Data,
        signature: P256.Signing.ECDSASignature,
        signedDate: Date?,
        chain: VerifiedChain
    ) throws(JWSVerificationError) -> VerifiedJWS {
        guard chain.leafKey.isValidSignature(signature, for: jws.signingInput) else { throw .badSignature }
        return VerifiedJWS(header: chain.header, payload: payload, signedDate: signedDate, leafCertificate: chain.leaf)
    }

    /// The instant to validate the chain at, and the payload's `signedDate` to report. With an
    /// explicit instant the payload need not be JSON, so its `signedDate` is read leniently.
    private static func times(_ time: JWSValidationTime, payload: Data) throws(JWSVerificationError) -> (validation: Date, signedDate: Date?) {
        switch time {
        case .instant(let instant):
            return (instant, try? SignedDate.read(from: payload))
        case .signedDate:
            guard let signedDate = try SignedDate.read(from: payload) else { throw .malformed("missing signedDate") }
            return (signedDate, signedDate)
        }
    }
}
