import PerennialWire
import Foundation
import PerennialCore
import Testing

@testable import PerennialServer

/// The subscriber answer is written by hand for speed; `WireJSON.encoder()` applied to the same
/// value stays the reference, and the two must agree byte for byte on every shape of answer.
struct APIJSONWriterTests {
    /// Dates are written as ISO 8601 with milliseconds, to the nearest millisecond: Foundation's
    /// ISO8601FormatStyle rounds down, which wrote Apple's 1795740890073 ms (1795740890.0729999 s
    /// as a Double) as .072. What is written reads back as the same instant within half a millisecond.
    @Test(arguments: 0..<200)
    func datesAreWrittenToTheNearestMillisecond(seed: UInt64) throws {
        var generator = SeededRandomNumberGenerator(seed: seed)
        // 1900 to 2200, with sub-millisecond fractions on both sides of the epoch.
        let date = Date(timeIntervalSince1970: Double.random(in: -2_208_988_800...7_258_118_400, using: &generator))
        let text = APIJSON.string(from: date)
        let parsed = try Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true))
        #expect(abs(parsed.timeIntervalSince(date)) <= 0.000_5 + 1e-6, "\(date.timeIntervalSince1970) → \(text)")
        #expect(text.count == 24 && text.hasSuffix("Z"))
    }

    @Test(arguments: [
        (0, "1970-01-01T00:00:00.000Z"), (-0.0004, "1970-01-01T00:00:00.000Z"), (-1.5, "1969-12-31T23:59:58.500Z"),
        (951_782_400, "2000-02-29T00:00:00.000Z"), (951_868_799.9999, "2000-03-01T00:00:00.000Z"), (1_700_000_000.1239, "2023-11-14T22:13:20.124Z"),
        (1_795_740_890.073, "2026-11-27T00:54:50.073Z"), (253_402_300_799.999, "9999-12-31T23:59:59.999Z"),
    ])
    func edgeInstantsAreWrittenToTheNearestMillisecond(interval: Double, text: String) {
        #expect(APIJSON.string(from: Date(timeIntervalSince1970: interval)) == text)
    }

    @Test(arguments: 0..<100)
    func theSubscriberAnswerMatchesItsEncodableForm(seed: UInt64) throws {
        var generator = SeededRandomNumberGenerator(seed: seed)
        let response = Self.response(using: &generator)
        let reference = try WireJSON.encoder().encode(response)
        #expect(String(decoding: response.apiJSON(), as: UTF8.self) == String(decoding: reference, as: UTF8.self))
    }

    private static func response(using generator: inout SeededRandomNumberGenerator) -> SubscriberResponse {
        func text() -> String {
            ["pro", "Pro", "_x", "a10", "a9", "quote\"back\\slash/", "line\nfeed\ttab\u{1}\u{1f}\u{7f}", "ünïcødé 😀", ""]
                .randomElement(using: &generator)!
        }
        func date() -> Date { Date(timeIntervalSince1970: Double.random(in: 1_500_000_000...2_000_000_000, using: &generator)) }
        func maybeDate() -> Date? { Bool.random(using: &generator) ? date() : nil }
        var entitlements: [String: ServerEntitlement] = [:]
        for _ in 0..<Int.random(in: 0...4, using: &generator) {
            entitlements[text()] = .init(
                isActive: Bool.random(using: &generator), productID: text(), expiresDate: maybeDate(),
                originalTransactionID: text(), transactionID: text(), grantID: Bool.random(using: &generator) ? text() : nil)
        }
        func maybeText() -> String? { Bool.random(using: &generator) ? text() : nil }
        let grants = (0..<Int.random(in: 0...2, using: &generator)).map { _ in
            ServerGrant(
                grantID: text(), entitlementID: text(), startsAt: date(), expiresAt: date(), revokedAt: maybeDate(),
                isActive: Bool.random(using: &generator), grantedBy: text(), reason: maybeText(), revokedBy: maybeText(),
                revokeReason: maybeText())
        }
        let subscriptions = (0..<Int.random(in: 0...3, using: &generator)).map { _ in
            ServerSubscription(
                originalTransactionID: text(), productID: text(), groupID: Bool.random(using: &generator) ? text() : nil,
                status: SubscriptionStatus(rawValue: text()), expiresDate: date(), accessExpiresDate: maybeDate(), willRenew: Bool.random(using: &generator),
                periodType: PeriodType(rawValue: text()), renewalProductID: Bool.random(using: &generator) ? text() : nil, environment: text())
        }
        let purchases = (0..<Int.random(in: 0...3, using: &generator)).map { _ in
            ServerPurchase(
                productID: text(), transactionID: text(), originalTransactionID: text(), purchaseDate: date(), expiresDate: maybeDate(),
                isActive: Bool.random(using: &generator))
        }
        let appTransaction = Bool.random(using: &generator)
            ? OriginalAppPurchase(
                appTransactionID: Bool.random(using: &generator) ? text() : nil, environment: text(), originalApplicationVersion: text(),
                originalPurchaseDate: date(), originalPlatform: maybeText())
            : nil
        let response = SubscriberResponse(
            serverTime: date(),
            subscriber: .init(
                appUserID: text(), entitlements: entitlements, subscriptions: subscriptions, purchases: purchases, originalAppPurchase: appTransaction,
                grants: grants.isEmpty && Bool.random(using: &generator) ? nil : grants),
            transfer: Bool.random(using: &generator) ? .init(previousOwner: text()) : nil,
            kept: Bool.random(using: &generator) ? .init(owner: text()) : nil)
        return response
    }
}
