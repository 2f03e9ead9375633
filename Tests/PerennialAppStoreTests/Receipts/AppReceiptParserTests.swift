import Foundation
import PerennialAppStore
import PerennialCore
import SwiftASN1
import Testing

@Suite("App receipt parsing and encoding")
struct AppReceiptParserTests {
    static let everyField = AppReceipt(
        receiptType: .production,
        appAppleID: 1_234_567_890,
        bundleID: "com.example.app",
        appVersion: "3.1",
        opaqueValue: Data([0xDE, 0xAD, 0xBE, 0xEF]),
        sha1Hash: Data(repeating: 0xAB, count: 20),
        creationDate: RFC3339Date.parse("2025-06-01T10:00:00.123Z"),
        inAppPurchases: [
            AppReceiptInAppPurchase(
                quantity: 2,
                productID: "coins.100",
                transactionID: "1000000000000001",
                purchaseDate: RFC3339Date.parse("2025-05-01T09:00:00Z"),
                originalTransactionID: "1000000000000001",
                originalPurchaseDate: RFC3339Date.parse("2025-05-01T09:00:00Z"),
                productType: 1
            ),
            AppReceiptInAppPurchase(
                quantity: 1,
                productID: "pass.premium",
                transactionID: "1000000000000002",
                purchaseDate: RFC3339Date.parse("2025-05-02T09:00:00Z"),
                originalTransactionID: "1000000000000000",
                originalPurchaseDate: RFC3339Date.parse("2025-04-02T09:00:00Z"),
                productType: 3,
                expiresDate: RFC3339Date.parse("2025-06-02T09:00:00Z"),
                webOrderLineItemID: 1_000_000_099_999,
                cancellationDate: RFC3339Date.parse("2025-05-10T12:30:00Z"),
                isTrialPeriod: true,
                isInIntroOfferPeriod: false,
                promotionalOfferID: "winter.promo",
                otherAttributes: [ReceiptAttribute(type: 1722, value: Data([0x0C, 0x01, 0x78]))]
            ),
        ],
        originalPurchaseDate: RFC3339Date.parse("2024-01-01T00:00:00Z"),
        originalAppVersion: "1.0",
        expirationDate: RFC3339Date.parse("2026-01-01T00:00:00Z"),
        otherAttributes: [ReceiptAttribute(type: 25, version: 2, value: Data([0x02, 0x01, 0x07]))]
    )

    @Test func roundTripsEveryFieldThroughEncoderSignerAndParser() throws {
        let bytes = try ReceiptTestPKI.rsa.get().sign(Self.everyField)
        let parsed = try AppReceiptParser.parse(bytes)
        #expect(parsed.receipt == Self.everyField)
        #expect(parsed.content == AppReceiptEncoder.payload(for: Self.everyField))
        #expect(try AppReceipt(payload: AppReceiptEncoder.payload(for: Self.everyField)) == Self.everyField)
    }

    @Test func acceptsBase64WithLineBreaksAndRawDER() throws {
        let bytes = try ReceiptTestPKI.rsa.get().sign(Self.everyField)
        let wrapped = bytes.base64EncodedString(options: [.lineLength64Characters, .endLineWithLineFeed])
        #expect(try ReceiptInput.bytes(fromBase64OrDER: Data(wrapped.utf8)) == bytes)
        #expect(try ReceiptInput.bytes(fromBase64OrDER: bytes) == bytes)
        #expect(throws: ReceiptError.malformed("input is neither DER nor base64")) {
            try ReceiptInput.bytes(fromBase64OrDER: Data("not a receipt!".utf8))
        }
    }

    @Test func rejectsEmptyInput() {
        #expect(throws: ReceiptError.malformed("empty input")) { try AppReceiptParser.parse([UInt8]()) }
    }

    @Test func rejectsEveryTruncation() throws {
        let bytes = try ReceiptTestPKI.rsa.get().sign(ReceiptTestPKI.receipt())
        for length in 0..<bytes.count {
            #expect(throws: ReceiptError.self) { try AppReceiptParser.parse(bytes.prefix(length)) }
        }
    }

    @Test func rejectsRandomBytes() {
        var generator = SeededRandomNumberGenerator(seed: 0x5EED)
        for round in 0..<2000 {
            var bytes = (0..<(round % 300)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            if round.isMultiple(of: 2), !bytes.isEmpty { bytes[0] = 0x30 }
            #expect(throws: ReceiptError.self) { try AppReceiptParser.parse(bytes) }
        }
    }

    @Test func rejectsRandomCorruptionOfAValidReceiptWithoutCrashing() throws {
        let bytes = try ReceiptTestPKI.rsa.get().sign(Self.everyField)
        var generator = SeededRandomNumberGenerator(seed: 42)
        for _ in 0..<2000 {
            var corrupted = bytes
            let index = Int.random(in: 0..<corrupted.count, using: &generator)
            corrupted[index] = UInt8.random(in: 0...255, using: &generator)
            // Either outcome is fine; what matters is a value or a typed error, never a trap.
            _ = try? AppReceiptParser.parse(corrupted)
        }
    }

    @Test func rejectsContentThatIsNotSignedData() throws {
        var serializer = DER.Serializer()
        try serializer.appendConstructedNode(identifier: .sequence) { sequence in
            try sequence.serialize(ASN1ObjectIdentifier("1.2.840.113549.1.7.1"))
        }
        #expect(throws: ReceiptError.notSignedData(contentType: "1.2.840.113549.1.7.1")) {
            try AppReceiptParser.parse(serializer.serializedBytes)
        }
    }

    @Test func rejectsDuplicateAndMistypedAttributes() {
        let bundle = ReceiptAttribute(type: 2, value: Data([0x0C, 0x01, 0x61]))
        #expect(throws: ReceiptError.malformed("attribute 2 appears more than once")) {
            try AppReceipt(payload: Self.attributeSet([bundle, bundle]))
        }
        #expect(throws: ReceiptError.self) {
            try AppReceipt(payload: Self.attributeSet([ReceiptAttribute(type: 12, value: Data([0x16, 0x03, 0x61, 0x62, 0x63]))]))
        }
        #expect(throws: ReceiptError.self) {
            try AppReceipt(payload: Self.attributeSet([ReceiptAttribute(type: 1, value: Data([0x0C, 0x01, 0x61]))]))
        }
        #expect(throws: ReceiptError.self) {
            try AppReceiptInAppPurchase(payload: Self.attributeSet([ReceiptAttribute(type: 1713, value: Data([0x02, 0x01, 0x05]))]))
        }
    }

    @Test func isLenientOnStringTypesAndEmptyDates() throws {
        let receipt = try AppReceipt(payload: Self.attributeSet([
            ReceiptAttribute(type: 2, value: Data([0x16, 0x01, 0x61])),  // IA5String bundle id
            ReceiptAttribute(type: 12, value: Data([0x16, 0x00])),  // empty date = absent
        ]))
        #expect(receipt.bundleID == "a")
        #expect(receipt.creationDate == nil)
        let purchase = try AppReceiptInAppPurchase(payload: Self.attributeSet([
            ReceiptAttribute(type: 1703, value: Data([0x02, 0x02, 0x01, 0x00]))  // INTEGER transaction id
        ]))
        #expect(purchase.transactionID == "256")
    }

    static func attributeSet(_ attributes: [ReceiptAttribute]) -> Data {
        AppReceiptEncoder.payload(for: AppReceipt(otherAttributes: attributes))
    }
}
