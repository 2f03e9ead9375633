import Foundation
import PerennialAppStore
import Testing

@Suite("Legacy wire models")
struct LegacyModelTests {
    @Test("a sandbox verifyReceipt answer decodes with its quirks")
    func sandboxAnswer() throws {
        let response = try WireJSON.decode(VerifyReceiptResponse.self, LegacyTestPayloads.sandboxVerifyReceipt)
        #expect(response.status == .valid)
        #expect(response.environment == .sandbox)
        #expect(response.receipt?.bundle_id == "com.example.app")
        #expect(response.receipt?.adam_id == 0)
        #expect(response.receipt?.request_date_ms == WireJSON.ms(1_582_570_700_000))
        guard case .many(let rows) = response.latest_receipt_info else {
            Issue.record("latest_receipt_info should be an array")
            return
        }
        #expect(rows.count == 5)
        #expect(rows[1].original_transaction_id == "1000000746095599")  // sent as a number
        #expect(rows[2].is_upgraded == true)
        #expect(rows[0].cancellation_reason == .refundedDueToIssue)
        #expect(rows[4].is_trial_period == true)
        let pending = try #require(response.pending_renewal_info?.first)
        #expect(pending.auto_renew_status == .on)
        #expect(pending.expiration_intent == nil)  // sent as ""
        #expect(pending.is_in_billing_retry_period == false)
        #expect(pending.price_consent_status == .customerHasNotResponded)
    }

    @Test("re-encoding keeps Apple's keys and text forms; only \"\" values disappear")
    func sandboxAnswerRoundTrip() throws {
        let original = Data(LegacyTestPayloads.sandboxVerifyReceipt.utf8)
        let response = try JSONDecoder().decode(VerifyReceiptResponse.self, from: original)
        let reencoded = try WireJSON.encode(response)
        let originalKeys = try WireJSON.keyPaths(original)
        let reencodedKeys = try WireJSON.keyPaths(reencoded)
        #expect(reencodedKeys.isSubset(of: originalKeys))
        #expect(originalKeys.subtracting(reencodedKeys) == ["pending_renewal_info[].expiration_intent"])
        let object = try #require(try JSONSerialization.jsonObject(with: reencoded) as? [String: Any])
        let rows = try #require(object["latest_receipt_info"] as? [[String: Any]])
        #expect(rows[1]["original_transaction_id"] as? String == "1000000746095599")
        #expect(rows[0]["purchase_date_ms"] as? String == "1582570300000")
        #expect(rows[2]["is_upgraded"] as? String == "true")
        #expect(try JSONDecoder().decode(VerifyReceiptResponse.self, from: reencoded) == response)
    }

    @Test("the iOS 6 answer keeps its single objects")
    func iOS6Answer() throws {
        let response = try WireJSON.decode(VerifyReceiptResponse.self, LegacyTestPayloads.iOS6ExpiredVerifyReceipt)
        #expect(response.status == .subscriptionExpired)
        guard case .one(let latest) = response.latest_receipt_info else {
            Issue.record("latest_receipt_info should be a single object")
            return
        }
        #expect(latest.expires_date == "1349195580000")
        #expect(response.latest_expired_receipt_info?.transaction_id == "1000000056019999")
        #expect(response.auto_renew_status == .off)
        #expect(response.receipt?.expires_date_formatted == "2012-10-02 16:33:00 Etc/GMT")
        let reencoded = try JSONSerialization.jsonObject(with: try WireJSON.encode(response)) as? [String: Any]
        #expect(reencoded?["latest_receipt_info"] is [String: Any])
        #expect(reencoded?["auto_renew_status"] as? Int == 0)
    }

    @Test("the retry flag in either spelling", arguments: [
        (#"{"status": 21104, "is_retryable": true}"#, true),
        (#"{"status": 21104, "is-retryable": 1}"#, true),
        (#"{"status": 21104, "is-retryable": "true"}"#, true),
        (#"{"status": 21104, "is_retryable": false}"#, false),
        (#"{"status": "21104", "is_retryable": "0"}"#, false),
        (#"{"status": 21104}"#, false),
    ])
    func retryFlag(json: String, retryable: Bool) throws {
        let response = try WireJSON.decode(VerifyReceiptResponse.self, json)
        #expect(response.status == 21104)
        #expect(response.isRetryable == retryable)
        #expect(response.status.isRetryable(retryableFlag: response.isRetryable) == retryable)
    }

    @Test("an error answer decodes with its exception")
    func errorAnswer() throws {
        let response = try WireJSON.decode(
            VerifyReceiptResponse.self,
            #"{"exception":"com.apple.jingle.commercelogic.inappcache.MZInAppCacheAccessException","status":21009,"environment":"Production"}"#)
        #expect(response.status == .internalDataAccessError)
        #expect(response.exception?.hasSuffix("MZInAppCacheAccessException") == true)
        #expect(response.environment == .production)
    }

    @Test("a body without status is rejected")
    func missingStatus() {
        #expect(throws: DecodingError.self) { try WireJSON.decode(VerifyReceiptResponse.self, #"{"environment":"Sandbox"}"#) }
    }

    @Test("the request uses Apple's hyphenated keys")
    func request() throws {
        let request = VerifyReceiptRequest(receipt_data: "MIIT", password: "secret", exclude_old_transactions: true)
        let json = String(decoding: try WireJSON.encode(request), as: UTF8.self)
        #expect(json == #"{"exclude-old-transactions":true,"password":"secret","receipt-data":"MIIT"}"#)
        #expect(try WireJSON.decode(VerifyReceiptRequest.self, json) == request)
    }

    @Test("V1 notifications decode in both eras")
    func notifications() throws {
        let current = try WireJSON.decode(NotificationV1.self, LegacyTestPayloads.v1AutoRenewOff)
        #expect(current.notification_type == .didChangeRenewalStatus)
        #expect(current.environment == .prod)
        #expect(current.auto_renew_status == false)
        #expect(current.unified_receipt?.environment == .production)
        #expect(current.unified_receipt?.latest_receipt_info?.count == 2)
        #expect(current.unified_receipt?.pending_renewal_info?.first?.grace_period_expires_date_ms == nil)

        let old = try WireJSON.decode(NotificationV1.self, LegacyTestPayloads.v1Pre2021Cancel)
        #expect(old.notification_type == .cancel)
        #expect(old.unified_receipt == nil)
        #expect(old.original_transaction_id == "1000000640000001")
        #expect(old.latest_receipt_info?.expires_date_formatted == "2019-03-05 09:55:00 Etc/GMT")
        #expect(old.cancellation_date_ms == WireJSON.ms(1_551_780_120_000))
    }
}
