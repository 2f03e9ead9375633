import Foundation
import PerennialCore
import Testing

/// One V2 `notificationType`/`subtype`, expressed as the records Apple's payload would carry:
/// what was known before, what the notification adds, and what the engine must answer.
struct NotificationScenario: Sendable, CustomTestStringConvertible {
    var notification: String
    var before: EvidenceRecords = EvidenceRecords()
    /// Day (after `Fixture.origin`) of the view before the notification.
    var beforeAt: Double
    var added: EvidenceRecords = EvidenceRecords()
    /// Day of the view after it.
    var afterAt: Double
    var expected: Expected
    var events: [EventKind]

    var testDescription: String { notification }

    /// The expected view after the notification; nil fields are not checked.
    struct Expected: Sendable {
        /// Nil: the subscriber has no subscription (one-time purchases only).
        var status: SubscriptionStatus?
        var productID: String? = nil
        var willRenew = false
        var expires: Double? = nil
        var activeEntitlements: [String] = []
        var periodType: PeriodType? = nil
        var pendingChange: PlanChangeKind? = nil
        var expirationReason: ExpirationReason? = nil
        /// The plan change kind carried by the first event.
        var eventPlanChange: PlanChangeKind? = nil
        var purchases = 0
    }
}
