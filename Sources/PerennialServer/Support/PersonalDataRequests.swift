import PerennialWire
public import Foundation
import Logging
import PerennialAppStore
import PerennialCore
public import PerennialStorage

/// A data-subject request about one app user of one app: export what Perennial keeps about the
/// user, or erase it (``PerennialStorage/PersonalDataStore`` says what goes and what stays). The
/// admin API, the dashboard and `perennial privacy` all come here, so each answers the same way
/// and every erasure leaves the same timeline entry.
public struct PersonalDataRequests: Sendable {
    let pipeline: EvidencePipeline

    public init(pipeline: EvidencePipeline) {
        self.pipeline = pipeline
    }

    /// Nil when nothing stored names the user in the app.
    public func export(_ user: AppUserID, now: Date) async throws(IngestError) -> PersonalDataExport? {
        let (storage, app) = (pipeline.storage, pipeline.app)
        let subscriber = try await pipeline.answer(for: user, now: now)
        do throws(StorageError) {
            let stored = try await storage.personalData(of: user, appBundleID: app.bundleID)
            let timeline = try await TimelineResponse.read(of: user, appBundleID: app.bundleID, from: storage)
            let report = try await storage.consumptionReport(of: user, appBundleID: app.bundleID)
            let retentionChoice = try await storage.retentionChoice(of: user, appBundleID: app.bundleID)
            let known = stored != nil || !timeline.entries.isEmpty || report != nil || subscriber.subscriber.grants != nil
                || subscriber.subscriber.originalAppPurchase != nil || retentionChoice != nil
            guard known else { return nil }
            return PersonalDataExport(
                appUserId: user.rawValue, app: app.id, exportedAt: now, appAccountToken: stored?.appAccountToken,
                purchases: stored?.purchases ?? [], subscriber: subscriber, consumptionReport: report,
                webhookEvents: try (stored?.webhookEvents ?? []).map { entry throws(StorageError) in
                    PersonalDataExport.WebhookEvent(
                        eventId: entry.event.eventID, type: entry.event.kind, occurredAt: entry.event.occurredAt, delivered: entry.deliveredAt != nil,
                        payload: try Self.payload(of: entry))
                },
                timeline: timeline, retentionChoice: retentionChoice)
        } catch {
            throw .storage(error)
        }
    }

    /// Erases the user's personal data in the app, in the timeline as `admin`'s action; nil when
    /// nothing stored named the user. The log line names the operator and what was erased, never
    /// the user.
    public func erase(_ user: AppUserID, by admin: String, reason: String?, now: Date) async throws(IngestError) -> ErasedPersonalData? {
        let erasure = PersonalDataErasure(
            appUserID: user, appBundleID: pipeline.app.bundleID, action: AdminAction(admin: admin, action: "erasePersonalData", reason: reason), at: now)
        let erased: ErasedPersonalData?
        do throws(StorageError) {
            erased = try await pipeline.storage.erasePersonalData(erasure)
        } catch {
            throw .storage(error)
        }
        if let erased {
            pipeline.logger.notice(
                "admin action: personal data erased",
                metadata: [
                    "admin": "\(admin)", "app": "\(pipeline.app.id)", "releasedPurchases": "\(erased.releasedPurchases.joined(separator: ","))",
                    "deletedRows": "\(erased.deletedRows)", "anonymizedEvidence": "\(erased.anonymizedEvidence)",
                    "rewrittenMentions": "\(erased.rewrittenMentions)",
                ])
        }
        return erased
    }

    /// An event's stored JSON as a value the export nests (any JSON, which the storage's own
    /// decoder, made for Perennial's types, does not read).
    private static func payload(of entry: OutboxEntry) throws(StorageError) -> JSONValue {
        do {
            return try JSONDecoder().decode(JSONValue.self, from: entry.event.payload)
        } catch {
            throw .corruptRow(table: "outbox", key: "\(entry.id)", reason: "the payload is not JSON: \(error)")
        }
    }
}
