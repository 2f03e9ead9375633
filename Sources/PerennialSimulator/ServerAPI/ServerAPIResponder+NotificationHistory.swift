import Foundation
import PerennialAppStore

/// Get Notification History: `POST /inApps/v1/notifications/history?paginationToken=…`.
extension ServerAPIResponder {
    /// How far back Apple keeps notification history.
    static let notificationHistoryDays: TimeInterval = 180

    /// The V2 notifications first sent in `[startDate, endDate)`, oldest first, 20 per page, each
    /// with its V2 delivery attempts; filtered by type (and subtype) or by the customer of a
    /// transaction — not both, as Apple — and optionally to those never delivered successfully.
    func notificationHistory(request: ServerAPIRequest, backend: any SimulatorBackend, now: Date) async throws(ServerAPIFailure) -> ServerAPIResponse {
        var cursor: ServerAPIPageCursor?
        if let text = request.queryValues("paginationToken").last {
            guard let parsed = ServerAPIPageCursor(token: text) else {
                throw .badRequest(.invalidPaginationToken, "Invalid request. The pagination token is invalid.")
            }
            cursor = parsed
        }
        let body = try decodeBody(NotificationHistoryRequest.self, from: request)
        guard let startDate = body.startDate else { throw .badRequest(.invalidStartDate, "Invalid request. The start date is not valid.") }
        guard let endDate = body.endDate else { throw .badRequest(.invalidEndDate, "Invalid request. The end date is not valid.") }
        guard startDate < endDate else {
            throw .badRequest(.startDateAfterEndDate, "Invalid request. The start date is later than the end date.")
        }
        guard startDate >= now.addingTimeInterval(-Self.notificationHistoryDays * 86_400) else {
            throw .badRequest(.startDateTooFarInPast, "Invalid request. The start date is more than 180 days in the past.")
        }
        if body.notificationSubtype != nil, body.notificationType == nil {
            throw .badRequest(.invalidNotificationType, "Invalid request. A notification subtype needs a notification type.")
        }
        if body.notificationType != nil, body.transactionId != nil {
            throw .badRequest(.multipleFiltersSupplied, "Invalid request. Provide a notification type or a transaction id, not both.")
        }
        var customer: Set<String>?
        if let transactionID = body.transactionId {
            let lookup = ServerAPILookup(state: await backend.currentState(), bundleID: bundleID)
            customer = Set(lookup.customerLifecycles(of: try lookup.transaction(transactionID).lifecycle).map(\.originalTransactionID))
        }

        let selected = await backend.notificationHistory().filter { record in
            let payload = record.notification.payload
            guard record.firstSendDate >= startDate, record.firstSendDate < endDate,
                payload.data?.bundleId == nil || payload.data?.bundleId == bundleID
            else { return false }
            if let type = body.notificationType, payload.notificationType != type { return false }
            if let subtype = body.notificationSubtype, payload.subtype != subtype { return false }
            if let customer, !customer.contains(record.notification.intent.originalTransactionID) { return false }
            if body.onlyFailures == true, record.attempts.contains(where: { $0.version == .v2 && $0.outcome.isSuccess }) { return false }
            return true
        }
        // History only grows at its end, so the position after the cursor's notification is stable.
        var remaining = selected[...]
        if let cursor {
            guard let index = selected.firstIndex(where: { $0.notification.payload.notificationUUID == cursor.identifier }) else {
                throw .badRequest(.invalidPaginationToken, "Invalid request. The pagination token is invalid.")
            }
            remaining = selected[(index + 1)...]
        }
        let items = Array(remaining.prefix(ServerAPIPageCursor.pageSize))
        let next = items.last.map {
            ServerAPIPageCursor(
                milliseconds: ServerAPIPageCursor.milliseconds($0.firstSendDate), identifier: $0.notification.payload.notificationUUID ?? "")
        }
        return .json(
            NotificationHistoryResponse(
                paginationToken: remaining.count > items.count ? next?.token : nil,
                hasMore: remaining.count > items.count,
                notificationHistory: items.map(Self.historyItem)))
    }

    /// One record as Apple lists it: the V2 body and its V2 attempts.
    static func historyItem(_ record: NotificationRecord) -> NotificationHistoryResponseItem {
        NotificationHistoryResponseItem(
            signedPayload: record.notification.body.signedPayload,
            sendAttempts: record.attempts.filter { $0.version == .v2 }.map(SendAttemptItem.init(simulated:)))
    }
}
