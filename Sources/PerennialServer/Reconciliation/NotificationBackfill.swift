import Foundation
import Logging
import PerennialAppStore
import PerennialStorage

/// Repairs notifications Apple sent while the server was down (or that never arrived): asks the
/// App Store Server API's notification history since the newest notification stored, and applies
/// each one through the same path as a live V2 notification, so the ones already received are
/// duplicates (same `notificationUUID`) and change nothing.
struct NotificationBackfill: Sendable {
    let storage: any SubscriberStorage
    let schedule: any ReconciliationSchedule
    let settings: ReconciliationSettings
    let logger: Logger

    /// Backfills one app; returns how many notifications were applied for the first time.
    func run(app: AppContext, client: AppStoreServerAPIClient, now: Date) async throws(ReconciliationError) -> Int {
        let latest: Date?
        do {
            latest = try await schedule.latestNotificationDate(appBundleID: app.bundleID)
        } catch {
            throw .apple("cannot read the latest notification: \(error)")
        }
        // A server that never received a notification has nothing to catch up on.
        guard let latest else { return 0 }
        let since = max(latest.addingTimeInterval(-60), now.addingTimeInterval(-settings.maximumBackfill))
        let request: Data
        do {
            request = try JSONEncoder().encode(NotificationHistoryRequest(startDate: since, endDate: now))
        } catch {
            throw .unreadableAnswer("cannot encode the history request: \(error)")
        }
        let pages: [NotificationHistoryResponse]
        do throws(AppStoreServerAPIError) {
            pages = try await client.allPages(.notificationHistory(body: ServerAPIRequestBody(json: request)), as: NotificationHistoryResponse.self)
        } catch {
            throw .apple(error.description)
        }
        var applied = 0
        let service = EvidenceService(storage: storage, logger: logger)
        for signedPayload in pages.flatMap({ $0.notificationHistory ?? [] }).compactMap(\.signedPayload) {
            guard let body = try? JSONEncoder().encode(ResponseBodyV2(signedPayload: signedPayload)) else { continue }
            do throws(IngestError) {
                guard let evidence = try await NotificationV2Ingest.verify(body: body, app: app, now: now).evidence else { continue }
                if case .applied = try await service.apply(evidence, app: app, now: now) { applied += 1 }
            } catch {
                logger.warning("backfilled notification not applied", metadata: ["app": "\(app.id)", "error": "\(error)"])
            }
        }
        return applied
    }
}
