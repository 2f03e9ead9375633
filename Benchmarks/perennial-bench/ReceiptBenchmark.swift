import Foundation
import PerennialAppStore

/// PKCS#7 app receipt costs, per receipt: parsing alone, the signature check, and the full
/// verification with the certificate chain, beside a baseline measured in the same run (the
/// signature check on an already parsed receipt, which is essentially one RSA-2048 PKCS#1 v1.5
/// verification).
///
/// Receipts come from a generated Apple-shaped PKI (RSA-2048 root → intermediate → signer), so the
/// benchmark needs no fixtures.
enum ReceiptBenchmark {
    static func run() async throws -> [BenchmarkRow] {
        let notValidBefore = Date(timeIntervalSince1970: 1_577_836_800)  // 2020-01-01
        let creation = Date(timeIntervalSince1970: 1_748_736_000)  // 2025-06-01
        let authority = try ReceiptSigningAuthority(
            notValidBefore: notValidBefore,
            notValidAfter: notValidBefore.addingTimeInterval(20 * 365 * 86_400)
        )
        let verifier = AppReceiptVerifier(trustedRoots: [authority.root])
        let small = try authority.sign(receipt(purchases: 1, creation: creation))
        let large = try authority.sign(receipt(purchases: 50, creation: creation))
        let smallSHA1 = try authority.sign(receipt(purchases: 1, creation: creation), digest: .sha1)
        let preParsed = try AppReceiptParser.parse(small)

        var rows: [BenchmarkRow] = []
        let baseline = try await measure("signature check only, pre-parsed (RSA-2048, SHA-256)", iterations: 2000, note: "baseline") {
            _ = try verifier.verifySignature(of: preParsed)
        }
        rows.append(baseline)
        func relative(_ row: BenchmarkRow) -> BenchmarkRow {
            var row = row
            row.note = String(format: "%.2f× baseline", row.microsecondsPerOperation / baseline.microsecondsPerOperation)
            return row
        }
        rows.append(relative(try await measure("parse only, 1 in-app (\(small.count) B)", iterations: 5000) {
            _ = try AppReceiptParser.parse(small)
        }))
        rows.append(relative(try await measure("parse only, 50 in-app (\(large.count) B)", iterations: 1000) {
            _ = try AppReceiptParser.parse(large)
        }))
        rows.append(relative(try await measure("parse + signature, 1 in-app, SHA-256", iterations: 2000) {
            _ = try verifier.verifySignature(of: AppReceiptParser.parse(small))
        }))
        rows.append(relative(try await measure("parse + signature, 1 in-app, SHA-1", iterations: 2000) {
            _ = try verifier.verifySignature(of: AppReceiptParser.parse(smallSHA1))
        }))
        rows.append(relative(try await measure("parse + full verify (signature + chain), 1 in-app", iterations: 500) {
            _ = try await verifier.verify(bytes: small)
        }))
        rows.append(relative(try await measure("parse + full verify (signature + chain), 50 in-app", iterations: 500) {
            _ = try await verifier.verify(bytes: large)
        }))
        return rows
    }

    private static func receipt(purchases: Int, creation: Date) -> AppReceipt {
        let month = 2_592_000.0
        var records: [AppReceiptInAppPurchase] = []
        for index in 0..<purchases {
            let periodStart = creation.addingTimeInterval(Double(index - purchases) * month)
            records.append(AppReceiptInAppPurchase(
                quantity: 1,
                productID: "pass.premium",
                transactionID: String(1_000_000_000_000_000 + index),
                purchaseDate: periodStart,
                originalTransactionID: "1000000000000000",
                originalPurchaseDate: creation.addingTimeInterval(Double(-purchases) * month),
                expiresDate: periodStart.addingTimeInterval(month),
                webOrderLineItemID: Int64(1_000_000_000_000 + index),
                isTrialPeriod: index == 0,
                isInIntroOfferPeriod: false
            ))
        }
        return AppReceipt(
            receiptType: .production,
            appAppleID: 1_234_567_890,
            bundleID: "com.example.app",
            appVersion: "3.1",
            opaqueValue: Data(repeating: 0x5A, count: 16),
            sha1Hash: Data(repeating: 0xA5, count: 20),
            creationDate: creation,
            inAppPurchases: records,
            originalPurchaseDate: creation.addingTimeInterval(-86_400 * 365),
            originalAppVersion: "1.0"
        )
    }
}
