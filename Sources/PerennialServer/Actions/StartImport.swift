import Foundation
import Logging
import PerennialCore
import PerennialStorage

/// Starting an import of a previous backend's file (docs/import.md): the file is read and kept as
/// a job that ``ImportJobs`` runs on any instance. Importing binds purchases to users, so it needs
/// the support scope, as moving a purchase does.
struct StartImport: OperatorAction {
    static let scope = AdminScope.support

    let file: Data
    let format: ImportInput.Format
    let app: AppContext

    /// The job as it starts, its progress and report empty.
    func perform(by key: ActingKey, with dependencies: ServerDependencies) async throws -> ImportStatus {
        let job: ImportJob
        do {
            job = try await ImportJobs.start(file, format: format, app: app, admin: key.name, storage: dependencies.storage, now: dependencies.clock.now)
        } catch let error as ImportInput.Unusable {
            throw APIError.malformed(error.description)
        }
        dependencies.logger.info(
            "admin action: import started", metadata: ["admin": "\(key.name)", "app": "\(app.id)", "import": "\(job.id)", "rows": "\(job.totalRows)"])
        return ImportStatus(job, problems: [])
    }
}
