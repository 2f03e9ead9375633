import Foundation
import PerennialCore
@testable import PerennialStorage
import Testing

/// Stored rows are read with Perennial's own JSON decoder (`StorageJSON.decode`): it must give what
/// Foundation's `JSONDecoder` gives for everything `StorageJSON.encode` writes, and refuse what is
/// not JSON — a truncated or corrupt row is a typed error, never a crash or a wrong value.
@Suite struct StorageJSONDecoderTests {
    static func decode<T: Decodable>(_ type: T.Type, _ json: String) throws -> T {
        try StorageJSON.decode(type, from: Data(json.utf8), table: "test", key: "k")
    }

    /// Strings that need escaping or are not ASCII, as customers' app user ids and Apple's fields can be.
    static let awkward = ["", "plain", "quote \" and backslash \\", "slash / and \\/", "new\nline\ttab\r", "\u{01}\u{1F}", "é ü ß", "日本語", "😀 🇫🇷", "\u{2028}"]

    /// Every field set, strings drawn from `awkward`, dates with fractions and before 2001.
    static func transaction(_ seed: Int) -> Transaction {
        let text = awkward[seed % awkward.count]
        return Transaction(
            transactionID: "\(2_000_000_000_000_000 + seed)", originalTransactionID: "2000000000000000\(text)",
            webOrderLineItemID: seed % 2 == 0 ? "\(seed)" : nil, bundleID: "com.example.\(text)", productID: text,
            productType: seed % 3 == 0 ? .autoRenewable : ProductType(rawValue: text), subscriptionGroupID: "2000\(seed)",
            purchaseDate: Date(timeIntervalSinceReferenceDate: Double(seed) * 12_345.678_9 - 1e6),
            originalPurchaseDate: Date(timeIntervalSince1970: 1_700_000_000.123_456_7),
            expiresDate: seed % 4 == 0 ? nil : Date(timeIntervalSinceReferenceDate: 788_076_668.397_000_1 + Double(seed)),
            quantity: seed % 5 + 1, ownership: seed % 2 == 0 ? .purchased : .familyShared, reason: .renewal,
            offer: Offer(type: .introductory, id: text, paymentMode: .freeTrial, period: "P1W"), isUpgraded: seed % 2 == 1,
            revocation: Revocation(date: Date(timeIntervalSinceReferenceDate: -0.001), reason: .developerIssue, type: .refundProrated, percentage: 45_000),
            price: Money(milliUnits: Int64(seed) * 999 - 5_000, currency: "EUR"), storefront: "FRA",
            appAccountToken: UUID(), billingPlan: seed % 2 == 0 ? .monthly : BillingPlan(rawValue: text),
            commitment: CommitmentPeriod(
                billingPeriodNumber: seed % 12 + 1, totalBillingPeriods: 12, expiresDate: Date(timeIntervalSinceReferenceDate: 1e9 + Double(seed)),
                price: Money(milliUnits: 119_880, currency: "EUR")),
            environment: seed % 2 == 0 ? .sandbox : .production,
            provenance: Provenance(source: .notificationV2, versionDate: Date(timeIntervalSinceReferenceDate: 1e9 / 3), isSigned: true))
    }

    @Test func recordsDecodeAsFoundationDecodesThem() throws {
        for seed in 0..<40 {
            let transaction = Self.transaction(seed)
            let data = try StorageJSON.encode(transaction, what: "test")
            let decoded = try StorageJSON.decode(Transaction.self, from: data, table: "test", key: "k")
            #expect(decoded == transaction)
            #expect(decoded == (try JSONDecoder().decode(Transaction.self, from: data)))
        }
        let info = RenewalInfo(
            originalTransactionID: "1", productID: "p", autoRenewProductID: "q\"", willAutoRenew: false, expirationReason: .billingError,
            isInBillingRetry: true, gracePeriodExpiresDate: Date(timeIntervalSinceReferenceDate: 1.5), renewalPrice: Money(milliUnits: 4_990, currency: "USD"),
            eligibleWinBackOfferIDs: ["a", "日本", ""], environment: .production,
            provenance: Provenance(source: .serverAPI, versionDate: Date(timeIntervalSinceReferenceDate: 3), isSigned: true))
        let data = try StorageJSON.encode([info, info], what: "test")
        #expect(try StorageJSON.decode([RenewalInfo].self, from: data, table: "test", key: "k") == [info, info])
    }

    /// Transactions and renewal infos are read straight off the parsed document, not through
    /// their `Decodable` conformances (`StoredRecord`): each must read every field, nested records
    /// included, whatever the order of the keys, ignoring keys it does not know.
    @Test func storedRecordsReadEveryFieldInAnyKeyOrder() throws {
        let transaction = Self.transaction(2)
        let info = RenewalInfo(
            originalTransactionID: "1", productID: "p", autoRenewProductID: "q", willAutoRenew: true, expirationReason: .voluntary,
            isInBillingRetry: true, gracePeriodExpiresDate: Date(timeIntervalSinceReferenceDate: 1.5), priceIncreaseStatus: PriceIncreaseStatus(rawValue: "customerConsented"),
            offer: Offer(type: .promotional, id: "promo", paymentMode: .payAsYouGo, period: "P1M"), renewalPrice: Money(milliUnits: 4_990, currency: "USD"),
            renewalDate: Date(timeIntervalSinceReferenceDate: 2.25), recentSubscriptionStartDate: Date(timeIntervalSinceReferenceDate: -3),
            eligibleWinBackOfferIDs: ["a", "日本"], appAccountToken: UUID(), billingPlan: .monthly,
            commitment: CommitmentRenewal(
                willAutoRenew: false, autoRenewProductID: "q", billingPlan: .monthly, renewalDate: Date(timeIntervalSinceReferenceDate: 4.5),
                renewalPrice: Money(milliUnits: 119_880, currency: "USD")),
            environment: .sandbox,
            provenance: Provenance(source: .serverAPI, versionDate: Date(timeIntervalSinceReferenceDate: 3), isSigned: false))
        // A field added to a record and not to the fixtures would go untested here.
        #expect(Self.unsetFields(of: transaction).isEmpty, "set every field: \(Self.unsetFields(of: transaction))")
        #expect(Self.unsetFields(of: info).isEmpty, "set every field: \(Self.unsetFields(of: info))")

        try Self.expectReadInAnyKeyOrder(transaction)
        try Self.expectReadInAnyKeyOrder(info)
    }

    static func expectReadInAnyKeyOrder<Record: Codable & Equatable>(_ record: Record) throws {
        let sorted = try StorageJSON.encode(record, what: "test")
        let declarationOrder = try JSONEncoder().encode(record)
        #expect(sorted != declarationOrder, "the fixture's keys are already sorted in declaration order")
        // Unknown keys before, among and after the known ones, the keys still in order (the reader
        // skips them), and the same keys out of order (the reader searches).
        let body = String(decoding: sorted, as: UTF8.self).dropFirst().dropLast()
        #expect(body.contains(#","offer":"#))
        let among = #"{"aaa":[1,{"b":2}],"# + body.replacingOccurrences(of: #","offer":"#, with: #","isZ":null,"offer":"#) + #","zzz":{}}"#
        let outOfOrder = #"{"zzz":{},"# + body + #","aaa":[1,{"b":2}]}"#
        for json in [sorted, declarationOrder, Data(among.utf8), Data(outOfOrder.utf8)] {
            #expect(try StorageJSON.decode(Record.self, from: json, table: "t", key: "k") == record, "\(String(decoding: json, as: UTF8.self))")
        }
    }

    /// A record that asks for its keys out of their stored order still finds each, and knows an
    /// absent one absent: the reader searches when a key is asked after one it does not follow.
    struct BackwardsRecord: StoredRecord, Equatable {
        var a: String?
        var b: String
        var c: String?

        init(a: String?, b: String, c: String?) {
            self.a = a
            self.b = b
            self.c = c
        }

        init(stored members: StorageJSONDecoder.Members) throws {
            var members = members
            c = try members.decodeIfPresent("c")
            b = try members.decode("b")
            a = try members.decodeIfPresent("a")
        }
    }

    @Test func aRecordAskingOutOfOrderFindsEveryKey() throws {
        for json in [#"{"a":"1","b":"2","c":"3"}"#, #"{"b":"2","c":"3"}"#, #"{"a":"1","b":"2"}"#, #"{"b":"2"}"#, #"{"c":"3","a":"1","b":"2"}"#] {
            let expected = BackwardsRecord(
                a: json.contains(#""a""#) ? "1" : nil, b: "2", c: json.contains(#""c""#) ? "3" : nil)
            #expect(try Self.decode(BackwardsRecord.self, json) == expected, "\(json)")
        }
        #expect(throws: StorageError.self) { try Self.decode(BackwardsRecord.self, #"{"a":"1","c":"3"}"#) }
    }

    /// The paths of the fields of `value`, nested records included, that are nil.
    static func unsetFields(of value: Any, path: String = "") -> [String] {
        Mirror(reflecting: value).children.flatMap { child -> [String] in
            let name = path + (child.label ?? "?")
            let field = Mirror(reflecting: child.value)
            if field.displayStyle == .optional {
                guard let wrapped = field.children.first?.value else { return [name] }
                return Mirror(reflecting: wrapped).displayStyle == .struct && !(wrapped is Date) ? unsetFields(of: wrapped, path: name + ".") : []
            }
            return field.displayStyle == .struct && !(child.value is Date) && !(child.value is UUID) ? unsetFields(of: child.value, path: name + ".") : []
        }
    }

    struct Everything: Codable, Equatable {
        var data: Data
        var url: URL
        var decimal: Decimal
        var counts: [String: Int]
        var nested: [[Int?]]
        var small: Int8
        var unsigned: UInt64
        var float: Float
        var missing: String?
    }

    @Test func foundationsSpecialCasesAndContainersDecodeTheSame() throws {
        let value = Everything(
            data: Data([0, 1, 2, 254, 255]), url: URL(string: "https://example.com/hook?a=1&b=%20")!, decimal: Decimal(string: "12.345")!,
            counts: ["a": 1, "é\"": -2, "": 3], nested: [[1, nil, 3], [], [nil]], small: -128, unsigned: .max, float: 1.5, missing: nil)
        let data = try StorageJSON.encode(value, what: "test")
        #expect(try StorageJSON.decode(Everything.self, from: data, table: "test", key: "k") == value)
        #expect(try JSONDecoder().decode(Everything.self, from: data) == value)
    }

    @Test func escapesNumbersAndLiteralsAreRead() throws {
        #expect(try Self.decode(String.self, #""caf\u00e9 \ud83d\ude00 \/ \" \\ \b\f\n\r\t""#) == "café 😀 / \" \\ \u{08}\u{0C}\n\r\t")
        #expect(try Self.decode([Int64].self, "[9223372036854775807, -9223372036854775808, 0, -0, 1e3, 2.0]") == [.max, .min, 0, 0, 1000, 2])
        #expect(try Self.decode([Double].self, " [ -0.0 , 1.5e-7, 788076668.3970001, 1E+2 ] ").map(\.bitPattern) == [-0.0, 1.5e-7, 788_076_668.397_000_1, 100].map(\.bitPattern))
        #expect(try Self.decode([Bool?].self, "[true,false,null]") == [true, false, nil])
        #expect(try Self.decode([String: [String]].self, #"{"a":[],"b":["x"]}"#) == ["a": [], "b": ["x"]])
    }

    /// Numbers as Foundation writes them read back to the same bits (those with few digits
    /// through the exact fast path, the rest through `strtod`), UUIDs in either case, and a
    /// control character is refused wherever it falls in a long string.
    @Test func numbersUUIDsAndLongStringsReadBackExactly() throws {
        var generator = SystemRandomNumberGenerator()
        var doubles: [Double] = [0, -0.0, 1, -1, 0.1, 1e-7, 1e15, 1e22, 1e23, 123_456_789_012_345, 1_234_567_890_123_456, .leastNonzeroMagnitude, .greatestFiniteMagnitude]
        doubles += (0..<2_000).map { _ in Double(bitPattern: generator.next() & ~(0x7FF << 52) | (UInt64.random(in: 0x300...0x4FF) << 52)) }
        doubles += (0..<2_000).map { _ in Double(Int64.random(in: -1_000_000_000_000...1_000_000_000_000)) / 1_000 }
        let encoder = JSONEncoder()
        let decoded = try StorageJSON.decode([Double].self, from: try encoder.encode(doubles), table: "test", key: "k")
        #expect(decoded.map(\.bitPattern) == doubles.map(\.bitPattern))
        #expect(try Self.decode([Double].self, "[0.000000000000000000001, 123456789012345.6, 1.5e3, 0.1234567890123456789]").map(\.bitPattern)
            == [1e-21, 123_456_789_012_345.6, 1_500, 0.123_456_789_012_345_678_9].map(\.bitPattern))
        let uuids = (0..<50).map { _ in UUID() }
        #expect(try StorageJSON.decode([UUID].self, from: try encoder.encode(uuids), table: "test", key: "k") == uuids)
        #expect(try Self.decode(UUID.self, "\"\(uuids[0].uuidString.lowercased())\"") == uuids[0])
        #expect(throws: StorageError.self) { try Self.decode(UUID.self, #""E621E1F8-C36C-495A-93FC-0C247A3E6E5""#) }
        #expect(throws: StorageError.self) { try Self.decode(UUID.self, #""E621E1F8xC36C-495A-93FC-0C247A3E6E5F""#) }
        let long = String(repeating: "abcdefgh/é", count: 7)
        // The scan jumps to the first quote, backslash or control byte of each eight: each kind,
        // escaped, at every offset, after ASCII and after a multi-byte character.
        for special in ["\"", "\\", "\n", "\u{01}"] {
            for position in 0..<long.count {
                var text = long
                text.insert(contentsOf: special, at: text.index(text.startIndex, offsetBy: position))
                #expect(try StorageJSON.decode(String.self, from: try encoder.encode(text), table: "test", key: "k") == text)
            }
        }
        for position in 0..<long.utf8.count {
            var bytes = Array("\"\(long)\"".utf8)
            #expect(try StorageJSON.decode(String.self, from: Data(bytes), table: "test", key: "k") == long)
            bytes[position + 1] = 0x1F
            #expect(throws: StorageError.self) { try StorageJSON.decode(String.self, from: Data(bytes), table: "test", key: "k") }
        }
    }

    /// A rebuild decodes each record where it lies in a batch's buffer, between other records: it
    /// must read as it does alone, never past its end, and name its errors' bytes from its start.
    @Test func aRecordAmongOthersInOneBufferDecodesAsItDoesAlone() throws {
        let transactions = (0..<6).map(Self.transaction)
        let records = try transactions.map { Array(try StorageJSON.encode($0, what: "test")) }
        var buffer = Array(#"{"before":"\""}"#.utf8)
        var ranges: [Range<Int>] = []
        for record in records {
            ranges.append(buffer.count..<buffer.count + record.count)
            buffer += record
        }
        buffer += Array(#"""#.utf8)
        for (transaction, range) in zip(transactions, ranges) {
            let decoded = try StorageJSON.decode(Transaction.self, bytes: buffer, in: range, table: "test", key: "k")
            #expect(decoded == transaction)
            // Cut short, a record fails even though the buffer goes on (with quotes and braces).
            for cut in [1, 2, 10, range.count / 2] {
                #expect(throws: StorageError.self) {
                    try StorageJSON.decode(Transaction.self, bytes: buffer, in: range.lowerBound..<range.upperBound - cut, table: "test", key: "k")
                }
            }
        }
        // A string where a number belongs: the error names the string's first byte in the record.
        let wrong = Array(#"{"currency":"EUR","milliUnits":"12"}"#.utf8)
        let digits = try #require(wrong.firstIndex(of: UInt8(ascii: "1")))
        let message = { (bytes: [UInt8], range: Range<Int>) -> String in
            do {
                _ = try StorageJSON.decode(Money.self, bytes: bytes, in: range, table: "test", key: "k")
                return "decoded"
            } catch { return "\(error)" }
        }
        #expect(message(wrong, wrong.indices).contains("at byte \(digits),"), "\(message(wrong, wrong.indices))")
        #expect(message(buffer + wrong, buffer.count..<buffer.count + wrong.count) == message(wrong, wrong.indices))
    }

    @Test func whatIsNotJSONOrNotTheTypeIsATypedError() throws {
        let valid = String(decoding: try StorageJSON.encode(Self.transaction(3), what: "test"), as: UTF8.self)
        // Every truncation of a stored record fails, as a corrupt row naming its table and key.
        for length in 0..<valid.utf8.count {
            let prefix = String(decoding: Array(valid.utf8)[..<length], as: UTF8.self)
            #expect(throws: StorageError.self) { try Self.decode(Transaction.self, prefix) }
        }
        #expect(throws: StorageError.self) { try Self.decode(Transaction.self, valid + "x") }
        for bad in [#"[1,]"#, #"{"a" 1}"#, "[01x]", #""\u12""#, #""\ud800""#, #""\q""#, "\"tab\tinside\"", "tru", "[1 2]", "-", "{\"a\":1,}"] {
            #expect(throws: StorageError.self, "\(bad)") { try Self.decode([String: Int].self, bad) }
        }
        #expect(throws: StorageError.self) { try Self.decode([Int8].self, "[128]") }
        #expect(throws: StorageError.self) { try Self.decode([Int].self, "[1.5]") }
        #expect(throws: StorageError.self) { try Self.decode([UInt].self, "[-1]") }
        // Deep nesting is refused, not a stack overflow.
        #expect(throws: StorageError.self) { try Self.decode([Int].self, String(repeating: "[", count: 100_000)) }

        do {
            _ = try Self.decode(Money.self, #"{"currency":"EUR","milliUnits":"12"}"#)
            Issue.record("a string decoded as a number")
        } catch {
            #expect("\(error)".contains("test") && "\(error)".contains("milliUnits"), "\(error)")
        }
        do {
            _ = try Self.decode(Money.self, #"{"milliUnits":12}"#)
            Issue.record("a missing key decoded")
        } catch {
            #expect("\(error)".contains("currency"), "\(error)")
        }
    }

    /// The decoder keeps no key beside a nested value (it reads the key back from the document when
    /// an error needs it), so each way a value is reached must still name its key: a keyed field,
    /// a single value (an `OpenValue`), a nested object, and a key written with an escape.
    @Test func aMismatchNamesTheKeyOfTheValue() throws {
        let valid = String(decoding: try StorageJSON.encode(Self.transaction(3), what: "test"), as: UTF8.self)
        let cases = [
            ("escaped key", "milliUnits", Money.self as any Decodable.Type, #"{"currency":"EUR","milli\u0055nits":"12"}"#),
            ("single value", "environment", Transaction.self, valid.replacingOccurrences(of: #""environment":"Production""#, with: #""environment":7"#)),
            ("nested object", "revocation", Transaction.self, valid.replacingOccurrences(of: #""revocation":{"#, with: #""revocation":[],"x":{"#)),
        ]
        for (name, key, type, json) in cases {
            #expect(json != valid, "\(name): the case did not change the record")
            do {
                _ = try Self.decode(type, json)
                Issue.record("\(name): decoded")
            } catch {
                #expect("\(error)".contains("Path: \(key)."), "\(name): \(error)")
            }
        }
    }
}
