import Foundation
import Logging
import PerennialAppStore
import PerennialStorage

/// Repairs notifications Apple sent while the server was down (or that never arrived): asks the
/// App Store Server API's notification history since the newest notification stored, and applies
/// each one through the same path as a live V2 notification, so the ones already received are
/// duplicates (same `notificationUUID`) and change nothing.
struct NotificationBackfill: Sendable {
    let storage: any ReconciliationSchedule
    let options: ReconciliationOptions
    let logger: Logger

    /// Backfills the pipeline's app; returns how many notifications were applied for the first time.
    func run(_ pipeline: EvidencePipeline, client: AppStoreServerAPIClient, now: Date) async throws(ReconciliationError) -> Int {
        let app = pipeline.app
        let latest: Date?
        do {
            latest = try await storage.latestNotificationDate(appBundleID: app.bundleID)
        } catch {
            throw .apple("cannot read the latest notification: \(error)")
        }
        // A server that never received a notification has nothing to catch up on.
        guard let latest else { return 0 }
        let since = max(latest.addingTimeInterval(-60), now.addingTimeInterval(-options.maximumBackfill))
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
        for signedPayload in pages.flatMap({ $0.notificationHistory ?? [] }).compactMap(\.signedPayload) {
            guard let body = try? JSONEncoder().encode(ResponseBodyV2(signedPayload: signedPayload)) else { continue }
            do throws(IngestError) {
                if case .applied = try await pipeline.ingest(.notificationV2(body), now: now).result { applied += 1 }
            } catch {
                logger.warning("backfilled notification not applied", metadata: ["app": "\(app.id)", "error": "\(error)"])
            }
        }
        return applied
    }
}
