import Foundation
import PerennialAppStore
import PerennialCore

/// Extend a Subscription Renewal Date: `PUT /inApps/v1/subscriptions/extend/{originalTransactionId}`.
extension ServerAPIResponder {
    /// Apple grants at most this many extensions per subscription in a year.
    static let extensionsPerYear = SimulatorState.renewalExtensionsPerYear

    /// Validates the body as Apple does (`extendByDays` 1–90, `extendReasonCode` 0–3, a
    /// `requestIdentifier` of at most 128 characters), then extends the current period through
    /// the lifecycle, which notifies `RENEWAL_EXTENDED`.
    func extendRenewalDate(
        originalTransactionID: String, request: ServerAPIRequest, backend: any SimulatorBackend
    ) async throws(ServerAPIFailure) -> ServerAPIResponse {
        let body = try decodeBody(ExtendRenewalDateRequest.self, from: request)
        guard let days = body.extendByDays, (1...90).contains(days) else {
            throw .badRequest(.invalidExtendByDays, "Invalid request. The extend-by-days value is invalid.")
        }
        guard let code = body.extendReasonCode, let reason = RenewalExtensionReason(rawValue: code.rawValue) else {
            throw .badRequest(.invalidExtendReasonCode, "Invalid request. The extend reason code is invalid.")
        }
        guard let requestIdentifier = body.requestIdentifier, !requestIdentifier.isEmpty, requestIdentifier.count <= 128 else {
            throw .badRequest(.invalidRequestIdentifier, "Invalid request. The request identifier is invalid.")
        }

        let state = await backend.currentState()
        let lifecycle = try ServerAPILookup(state: state, bundleID: bundleID).originalTransaction(originalTransactionID)
        guard lifecycle.ownership == .purchased else {
            throw .forbidden(.familySharedSubscriptionExtensionIneligible, "Family Sharing subscriptions are not eligible for extension.")
        }
        guard lifecycle.isAutoRenewable, lifecycle.status == .active else {
            throw .forbidden(.subscriptionExtensionIneligible, "The subscription is not eligible for a renewal date extension.")
        }
        let yearAgo = state.now.addingTimeInterval(-state.configuration.timeScale.interval(days: 365))
        guard lifecycle.renewalExtensions.filter({ $0.date > yearAgo }).count < Self.extensionsPerYear else {
            throw .forbidden(.subscriptionMaxExtension, "The subscription reached the maximum number of renewal date extensions.")
        }

        let step: SimulatorStep
        do {
            step = try await backend.perform(
                .extendRenewalDate(originalTransactionID: lifecycle.originalTransactionID, days: days, reason: reason))
        } catch {
            if case .lifecycle(.subscriptionNotActive) = error {
                throw .forbidden(.subscriptionExtensionIneligible, "The subscription is not eligible for a renewal date extension.")
            }
            throw .internalError(error.description)
        }
        let extended = step.output.transactions.last { $0.originalTransactionID == lifecycle.originalTransactionID }
        return .json(
            ExtendRenewalDateResponse(
                originalTransactionId: lifecycle.originalTransactionID,
                webOrderLineItemId: (extended ?? lifecycle.latestTransaction).webOrderLineItemID,
                success: true,
                effectiveDate: extended?.expiresDate.wholeMilliseconds))
    }
}
