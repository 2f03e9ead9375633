import Crypto
import Foundation
import PerennialAppStore
import PerennialCore
@testable import PerennialServer
import PerennialStorage
import Testing

/// Idempotency keys are stored with the evidence, and a redelivery after an upgrade must find its
/// key again: the labels are pinned here as the first release stored them, whatever the sources
/// are called now.
@Suite struct IdempotencyKeyTests {
    static let raw = Data("bytes".utf8)

    static func verified(_ source: EvidenceSource, appleID: String? = nil) -> AppEvidenceVerifier.Verified {
        AppEvidenceVerifier.Verified(records: EvidenceRecords(), environment: .sandbox, raw: raw, source: source, appleID: appleID)
    }

    /// `label:` + SHA-256 of the length-prefixed parts, written out here rather than through the
    /// code under test.
    static func digest(_ label: String, _ parts: Data...) -> String {
        var bytes = Data()
        for part in parts {
            withUnsafeBytes(of: UInt64(part.count).bigEndian) { bytes.append(contentsOf: $0) }
            bytes.append(part)
        }
        return label + ":" + SHA256.hash(data: bytes).map { String(format: "%02x", $0) }.joined()
    }

    @Test func keysKeepTheLabelsTheFirstReleaseStored() {
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        let alice = Data("alice".utf8)
        let cases: [(Evidence, AppEvidenceVerifier.Verified, String)] = [
            (.notificationV2(Self.raw), Self.verified(.notificationV2, appleID: "uuid-1"), "v2:uuid-1"),
            (.notificationV1(Self.raw), Self.verified(.notificationV1), Self.digest("v1", Self.raw)),
            (.signedTransaction("jws", presentedBy: "alice"), Self.verified(.signedTransaction), Self.digest("transaction", alice, Self.raw)),
            (.receipt("der", presentedBy: "alice"), Self.verified(.appReceipt), Self.digest("receipt", alice, Self.raw)),
            (.receipt("der", presentedBy: "alice"), Self.verified(.verifyReceipt), Self.digest("verifyReceipt", alice, Self.raw)),
            (.appleAnswer(Self.verified(.serverAPI), originalTransactionID: "1000"), Self.verified(.serverAPI), "reconciliation:1000:1700000000000"),
            (
                .ownershipMove(EvidenceRecords(), environment: .sandbox, to: "alice", by: .support), Self.verified(.storedRecords),
                Self.digest("move", alice, Self.raw)
            ),
        ]
        for (evidence, verified, expected) in cases {
            #expect(EvidencePipeline.idempotencyKey(of: evidence, verified, now: now) == expected, "\(verified.source)")
        }
    }
}
