import Crypto
import Foundation
import PerennialAppStore
import X509

/// JWS verification on an Apple-shaped chain (P-384 root and intermediate, P-256 leaf).
///
/// The floor is one raw ES256 verification; a cold verification needs three ECDSA verifications
/// (P-384 root → intermediate, P-384 intermediate → leaf, P-256 leaf → JWS), so their sum is printed
/// as the cold path's yardstick. Targets: warm ≤ 1.5 × floor, cold ≤ 1.3 × the sum.
enum JWSBenchmark {
    static func run() async throws -> [BenchmarkRow] {
        let now = Date(timeIntervalSince1970: 1_717_200_000)
        let pki = try AppleShapedPKI.generate(.init(validFrom: now.addingTimeInterval(-86_400)))
        let compact = try pki.sign(payloadJSON: transactionPayload(signedDate: now))
        let segments = compact.split(separator: ".")
        let signingInput = Data(compact.utf8.prefix(segments[0].utf8.count + 1 + segments[1].utf8.count))
        let signature = try P256.Signing.ECDSASignature(rawRepresentation: Base64URL.decode(segments[2]) ?? Data())
        let leafKey = pki.leafKey.publicKey
        guard leafKey.isValidSignature(signature, for: signingInput),
            pki.root.publicKey.isValidSignature(pki.intermediate.signature, for: pki.intermediate),
            pki.intermediate.publicKey.isValidSignature(pki.leaf.signature, for: pki.leaf)
        else { throw BenchmarkFailure("the generated chain does not verify") }

        let floor = try await measure("ES256 verify of the JWS (floor)", iterations: 2_000, note: "baseline") {
            guard leafKey.isValidSignature(signature, for: signingInput) else { throw BenchmarkFailure("floor") }
        }
        let rootVerify = try await measure("P-384 verify: intermediate by root", iterations: 300) {
            guard pki.root.publicKey.isValidSignature(pki.intermediate.signature, for: pki.intermediate) else {
                throw BenchmarkFailure("root")
            }
        }
        let intermediateVerify = try await measure("P-384 verify: leaf by intermediate", iterations: 300) {
            guard pki.intermediate.publicKey.isValidSignature(pki.leaf.signature, for: pki.leaf) else {
                throw BenchmarkFailure("intermediate")
            }
        }
        let sum = BenchmarkRow(
            name: "sum of the 3 ECDSA verifications",
            iterations: 1,
            secondsTotal: [floor, rootVerify, intermediateVerify].map { $0.microsecondsPerOperation }.reduce(0, +) / 1_000_000,
            note: "cold budget 1.3× the sum"
        )

        let coldVerifier = JWSVerifier(trustedRoots: [pki.root], chainCacheCapacity: 0)
        var cold = try await measure("full verify, cold chain cache", iterations: 300) {
            _ = try await coldVerifier.verify(compact)
        }
        cold.note = String(format: "%.2f× the sum (target ≤ 1.3×)", cold.microsecondsPerOperation / sum.microsecondsPerOperation)

        let warmVerifier = JWSVerifier(trustedRoots: [pki.root])
        _ = try await warmVerifier.verify(compact)
        var warm = try await measure("full verify, warm chain cache", iterations: 2_000) {
            guard try warmVerifier.verifyWithCachedChain(compact) != nil else { throw BenchmarkFailure("cache miss") }
        }
        warm.note = String(format: "%.2f× floor (target ≤ 1.5×)", warm.microsecondsPerOperation / floor.microsecondsPerOperation)

        return [floor, rootVerify, intermediateVerify, sum, cold, warm]
    }

    /// A transaction payload of Apple's usual size (about 1 KB of JSON).
    private static func transactionPayload(signedDate: Date) -> Data {
        let milliseconds = Int64(signedDate.timeIntervalSince1970 * 1000)
        let json = """
            {"transactionId":"2000000123456789","originalTransactionId":"2000000123456789","webOrderLineItemId":"2000000098765432",\
            "bundleId":"com.example.perennial","productId":"com.example.perennial.monthly","subscriptionGroupIdentifier":"21345678",\
            "purchaseDate":\(milliseconds - 60_000),"originalPurchaseDate":\(milliseconds - 60_000),"expiresDate":\(milliseconds + 2_592_000_000),\
            "quantity":1,"type":"Auto-Renewable Subscription","appAccountToken":"7e3fb20b-4cdb-47cc-936d-99d65f608138",\
            "inAppOwnershipType":"PURCHASED","signedDate":\(milliseconds),"environment":"Production","transactionReason":"PURCHASE",\
            "storefront":"USA","storefrontId":"143441","price":4990,"currency":"USD","appTransactionId":"704289572370816921"}
            """
        return Data(json.utf8)
    }
}
