import PerennialCore
import PerennialStorage

/// Every `type` a webhook body can have — subscriber events, ownership decisions, grants, consent
/// rescinded, a retention rule triggered — which
/// an endpoint's event filter may name.
enum WebhookEventTypes {
    static let all: Set<String> = Set(
        EventKind.allCases.map(\.rawValue) + [OwnershipChange.Decision.transferred, .kept, .released].map(\.rawValue)
            + EntitlementGrant.EventKind.allCases.map(\.rawValue) + [ConsentRescission.kind, RetentionRuleChoice.kind])

    /// The types of `names` that are not event types, in their order.
    static func unknown(in names: [String]) -> [String] {
        names.filter { !all.contains($0) }
    }
}
