import Foundation
import PerennialAppStore

/// Request a Test Notification (`POST /inApps/v1/notifications/test`) and Get Test Notification
/// Status (`GET /inApps/v1/notifications/test/{testNotificationToken}`).
extension ServerAPIResponder {
    /// Has the simulator send a `TEST` notification now; its `notificationUUID` is the token.
    func requestTestNotification(backend: any SimulatorBackend) async throws(ServerAPIFailure) -> ServerAPIResponse {
        let record: NotificationRecord
        do {
            record = try await backend.sendTestNotification()
        } catch {
            if case .invalidRequest(let reason) = error {
                throw .notFound(.serverNotificationURLNotFound, "No App Store Server Notifications URL is configured. \(reason)")
            }
            throw .internalError(error.description)
        }
        return .json(SendTestNotificationResponse(testNotificationToken: record.notification.payload.notificationUUID))
    }

    /// The test notification of `token` and how its deliveries went.
    func testNotificationStatus(token: String, backend: any SimulatorBackend) async throws(ServerAPIFailure) -> ServerAPIResponse {
        guard UUID(uuidString: token) != nil else {
            throw .badRequest(.invalidTestNotificationToken, "Invalid request. The test notification token is invalid.")
        }
        let wanted = token.lowercased()
        guard
            let record = await backend.notificationHistory().first(where: {
                $0.notification.payload.notificationType == .test && $0.notification.payload.notificationUUID?.lowercased() == wanted
            })
        else {
            throw .notFound(.testNotificationNotFound, "Test notification not found.")
        }
        let item = Self.historyItem(record)
        return .json(CheckTestNotificationResponse(signedPayload: item.signedPayload, sendAttempts: item.sendAttempts))
    }
}
